"""Contains all the data models used in inputs/outputs"""

from .address_result import AddressResult
from .address_results import AddressResults
from .ai_fill_request import AiFillRequest
from .ai_letter_request import AiLetterRequest
from .ai_letter_request_tone import AiLetterRequestTone
from .ai_tool_request import AiToolRequest
from .ai_tool_request_inputs import AiToolRequestInputs
from .calculator_result import CalculatorResult
from .calculator_result_defaults_applied_item import CalculatorResultDefaultsAppliedItem
from .calculator_result_inputs import CalculatorResultInputs
from .calculator_result_result import CalculatorResultResult
from .catalogue import Catalogue
from .catalogue_letter import CatalogueLetter
from .catalogue_letter_content import CatalogueLetterContent
from .catalogue_letter_content_fields import CatalogueLetterContentFields
from .catalogue_letter_providers_item import CatalogueLetterProvidersItem
from .catalogue_letter_recommended_mode import CatalogueLetterRecommendedMode
from .catalogue_prices import CataloguePrices
from .catalogue_tool import CatalogueTool
from .category import Category
from .city_result import CityResult
from .city_results import CityResults
from .company_profile import CompanyProfile
from .company_profile_activity import CompanyProfileActivity
from .company_profile_company import CompanyProfileCompany
from .company_profile_company_status import CompanyProfileCompanyStatus
from .company_profile_establishment import CompanyProfileEstablishment
from .company_profile_establishment_status import CompanyProfileEstablishmentStatus
from .company_profile_head_office import CompanyProfileHeadOffice
from .company_profile_headcount import CompanyProfileHeadcount
from .company_results import CompanyResults
from .company_summary import CompanySummary
from .company_summary_head_office import CompanySummaryHeadOffice
from .company_summary_status import CompanySummaryStatus
from .compute_request import ComputeRequest
from .compute_request_inputs import ComputeRequestInputs
from .electronic_consent import ElectronicConsent
from .electronic_consent_input import ElectronicConsentInput
from .electronic_request import ElectronicRequest
from .electronic_request_fallback import ElectronicRequestFallback
from .electronic_request_recipient_kind import ElectronicRequestRecipientKind
from .error import Error
from .error_error import ErrorError
from .expense import Expense
from .expense_group import ExpenseGroup
from .expense_member import ExpenseMember
from .expense_split import ExpenseSplit
from .expense_split_amounts import ExpenseSplitAmounts
from .expense_split_mode import ExpenseSplitMode
from .expense_split_shares import ExpenseSplitShares
from .field import Field
from .field_filled_from import FieldFilledFrom
from .field_options_item import FieldOptionsItem
from .field_required_when import FieldRequiredWhen
from .field_type import FieldType
from .free_letter_content import FreeLetterContent
from .free_letter_content_input import FreeLetterContentInput
from .fuel_prices import FuelPrices
from .fuel_prices_department import FuelPricesDepartment
from .fuel_prices_department_prices import FuelPricesDepartmentPrices
from .fuel_prices_national import FuelPricesNational
from .fuel_prices_national_prices import FuelPricesNationalPrices
from .fuel_prices_unit import FuelPricesUnit
from .fuel_search_centre import FuelSearchCentre
from .fuel_search_commune import FuelSearchCommune
from .fuel_station import FuelStation
from .fuel_stations import FuelStations
from .fuel_stations_sort import FuelStationsSort
from .fuel_stations_unit import FuelStationsUnit
from .get_mailing_proof_kind import GetMailingProofKind
from .health import Health
from .health_partners import HealthPartners
from .health_postgres import HealthPostgres
from .health_status import HealthStatus
from .health_temporal import HealthTemporal
from .health_worker import HealthWorker
from .legal_source import LegalSource
from .legal_source_status import LegalSourceStatus
from .letter_detail import LetterDetail
from .letter_detail_providers_item import LetterDetailProvidersItem
from .letter_detail_recommended_mode import LetterDetailRecommendedMode
from .letter_detail_template import LetterDetailTemplate
from .letter_field_segment import LetterFieldSegment
from .letter_field_segment_type import LetterFieldSegmentType
from .letter_provider import LetterProvider
from .letter_render import LetterRender
from .letter_render_request import LetterRenderRequest
from .letter_render_request_fields import LetterRenderRequestFields
from .letter_text_segment import LetterTextSegment
from .letter_text_segment_type import LetterTextSegmentType
from .list_mailings_status import ListMailingsStatus
from .mailing_address import MailingAddress
from .mailing_batch import MailingBatch
from .mailing_batch_channel import MailingBatchChannel
from .mailing_batch_counts import MailingBatchCounts
from .mailing_batch_fallback import MailingBatchFallback
from .mailing_batch_list import MailingBatchList
from .mailing_batch_mode import MailingBatchMode
from .mailing_batch_report import MailingBatchReport
from .mailing_batch_report_rows_item import MailingBatchReportRowsItem
from .mailing_batch_request import MailingBatchRequest
from .mailing_batch_request_channel import MailingBatchRequestChannel
from .mailing_batch_request_mode import MailingBatchRequestMode
from .mailing_batch_request_options import MailingBatchRequestOptions
from .mailing_batch_request_options_address_check import (
    MailingBatchRequestOptionsAddressCheck,
)
from .mailing_batch_request_options_address_placement import (
    MailingBatchRequestOptionsAddressPlacement,
)
from .mailing_batch_request_options_archive_years import (
    MailingBatchRequestOptionsArchiveYears,
)
from .mailing_batch_request_options_envelope_windows import (
    MailingBatchRequestOptionsEnvelopeWindows,
)
from .mailing_batch_request_options_postage import MailingBatchRequestOptionsPostage
from .mailing_batch_request_options_returned_mail import (
    MailingBatchRequestOptionsReturnedMail,
)
from .mailing_batch_row import MailingBatchRow
from .mailing_batch_row_error import MailingBatchRowError
from .mailing_batch_row_fields import MailingBatchRowFields
from .mailing_batch_status import MailingBatchStatus
from .mailing_electronic import MailingElectronic
from .mailing_electronic_fallback import MailingElectronicFallback
from .mailing_electronic_recipient_kind import MailingElectronicRecipientKind
from .mailing_postage import MailingPostage
from .mailing_postage_speed import MailingPostageSpeed
from .mailing_quote import MailingQuote
from .mailing_quote_lines_item import MailingQuoteLinesItem
from .mailing_request import MailingRequest
from .mailing_request_channel import MailingRequestChannel
from .mailing_request_mode import MailingRequestMode
from .mailing_request_options import MailingRequestOptions
from .mailing_request_options_address_check import MailingRequestOptionsAddressCheck
from .mailing_request_options_address_placement import (
    MailingRequestOptionsAddressPlacement,
)
from .mailing_request_options_archive_years import MailingRequestOptionsArchiveYears
from .mailing_request_options_envelope_windows import (
    MailingRequestOptionsEnvelopeWindows,
)
from .mailing_request_options_postage import MailingRequestOptionsPostage
from .mailing_request_options_returned_mail import MailingRequestOptionsReturnedMail
from .open_api_document import OpenApiDocument
from .partner_breaker import PartnerBreaker
from .partner_breaker_state import PartnerBreakerState
from .pdf_letter_content import PdfLetterContent
from .postal_address import PostalAddress
from .postal_address_country import PostalAddressCountry
from .proof_link import ProofLink
from .proof_link_kind import ProofLinkKind
from .quote_estimate import QuoteEstimate
from .quote_estimate_currency import QuoteEstimateCurrency
from .quote_estimate_defaults_applied_item import QuoteEstimateDefaultsAppliedItem
from .quote_estimate_inputs import QuoteEstimateInputs
from .quote_estimate_request import QuoteEstimateRequest
from .quote_estimate_request_inputs import QuoteEstimateRequestInputs
from .quote_line_item import QuoteLineItem
from .quote_route import QuoteRoute
from .readiness import Readiness
from .readiness_postgres import ReadinessPostgres
from .readiness_status import ReadinessStatus
from .request_warning import RequestWarning
from .request_warning_code import RequestWarningCode
from .route_result import RouteResult
from .route_result_from import RouteResultFrom
from .route_result_geometry import RouteResultGeometry
from .route_result_geometry_type import RouteResultGeometryType
from .route_result_to import RouteResultTo
from .search_catalogue_mode import SearchCatalogueMode
from .search_companies_status import SearchCompaniesStatus
from .search_fuel_stations_query import SearchFuelStationsQuery
from .search_fuel_stations_query_fuel import SearchFuelStationsQueryFuel
from .search_fuel_stations_query_sort import SearchFuelStationsQuerySort
from .search_results import SearchResults
from .search_results_mode import SearchResultsMode
from .search_results_results_item import SearchResultsResultsItem
from .search_results_results_item_kind import SearchResultsResultsItemKind
from .search_results_results_item_matched_by_item import (
    SearchResultsResultsItemMatchedByItem,
)
from .service_request import ServiceRequest
from .service_request_input import ServiceRequestInput
from .service_request_input_kind import ServiceRequestInputKind
from .service_request_kind import ServiceRequestKind
from .service_request_list import ServiceRequestList
from .service_request_status import ServiceRequestStatus
from .settlement import Settlement
from .settlement_balances_item import SettlementBalancesItem
from .settlement_currency import SettlementCurrency
from .settlement_method import SettlementMethod
from .settlement_transfers_item import SettlementTransfersItem
from .shipment import Shipment
from .shipment_channel import ShipmentChannel
from .shipment_document import ShipmentDocument
from .shipment_document_address_placement import ShipmentDocumentAddressPlacement
from .shipment_document_kind import ShipmentDocumentKind
from .shipment_document_letter import ShipmentDocumentLetter
from .shipment_events_item import ShipmentEventsItem
from .shipment_events_item_status import ShipmentEventsItemStatus
from .shipment_list import ShipmentList
from .shipment_mode import ShipmentMode
from .shipment_proofs_item import ShipmentProofsItem
from .shipment_proofs_item_kind import ShipmentProofsItemKind
from .shipment_returned_mail import ShipmentReturnedMail
from .shipment_status import ShipmentStatus
from .siret_recipient import SiretRecipient
from .text_segment import TextSegment
from .text_segment_type import TextSegmentType
from .v1_ai_fill_result import V1AiFillResult
from .v1_ai_fill_result_rejected_item import V1AiFillResultRejectedItem
from .v1_ai_fill_result_values import V1AiFillResultValues
from .v1_ai_letter_result import V1AiLetterResult
from .v1_ai_tool_result import V1AiToolResult
from .v1_test_advance import V1TestAdvance
from .v1_test_advance_status import V1TestAdvanceStatus
from .webhook_event import WebhookEvent
from .webhook_event_data import WebhookEventData
from .webhook_event_data_details import WebhookEventDataDetails
from .webhook_event_data_endpoint import WebhookEventDataEndpoint
from .webhook_event_data_endpoint_events_item import WebhookEventDataEndpointEventsItem
from .webhook_event_data_proof import WebhookEventDataProof
from .webhook_event_data_proof_kind import WebhookEventDataProofKind
from .webhook_event_type import WebhookEventType

__all__ = (
    "AddressResult",
    "AddressResults",
    "AiFillRequest",
    "AiLetterRequest",
    "AiLetterRequestTone",
    "AiToolRequest",
    "AiToolRequestInputs",
    "CalculatorResult",
    "CalculatorResultDefaultsAppliedItem",
    "CalculatorResultInputs",
    "CalculatorResultResult",
    "Catalogue",
    "CatalogueLetter",
    "CatalogueLetterContent",
    "CatalogueLetterContentFields",
    "CatalogueLetterProvidersItem",
    "CatalogueLetterRecommendedMode",
    "CataloguePrices",
    "CatalogueTool",
    "Category",
    "CityResult",
    "CityResults",
    "CompanyProfile",
    "CompanyProfileActivity",
    "CompanyProfileCompany",
    "CompanyProfileCompanyStatus",
    "CompanyProfileEstablishment",
    "CompanyProfileEstablishmentStatus",
    "CompanyProfileHeadOffice",
    "CompanyProfileHeadcount",
    "CompanyResults",
    "CompanySummary",
    "CompanySummaryHeadOffice",
    "CompanySummaryStatus",
    "ComputeRequest",
    "ComputeRequestInputs",
    "ElectronicConsent",
    "ElectronicConsentInput",
    "ElectronicRequest",
    "ElectronicRequestFallback",
    "ElectronicRequestRecipientKind",
    "Error",
    "ErrorError",
    "Expense",
    "ExpenseGroup",
    "ExpenseMember",
    "ExpenseSplit",
    "ExpenseSplitAmounts",
    "ExpenseSplitMode",
    "ExpenseSplitShares",
    "Field",
    "FieldFilledFrom",
    "FieldOptionsItem",
    "FieldRequiredWhen",
    "FieldType",
    "FreeLetterContent",
    "FreeLetterContentInput",
    "FuelPrices",
    "FuelPricesDepartment",
    "FuelPricesDepartmentPrices",
    "FuelPricesNational",
    "FuelPricesNationalPrices",
    "FuelPricesUnit",
    "FuelSearchCentre",
    "FuelSearchCommune",
    "FuelStation",
    "FuelStations",
    "FuelStationsSort",
    "FuelStationsUnit",
    "GetMailingProofKind",
    "Health",
    "HealthPartners",
    "HealthPostgres",
    "HealthStatus",
    "HealthTemporal",
    "HealthWorker",
    "LegalSource",
    "LegalSourceStatus",
    "LetterDetail",
    "LetterDetailProvidersItem",
    "LetterDetailRecommendedMode",
    "LetterDetailTemplate",
    "LetterFieldSegment",
    "LetterFieldSegmentType",
    "LetterProvider",
    "LetterRender",
    "LetterRenderRequest",
    "LetterRenderRequestFields",
    "LetterTextSegment",
    "LetterTextSegmentType",
    "ListMailingsStatus",
    "MailingAddress",
    "MailingBatch",
    "MailingBatchChannel",
    "MailingBatchCounts",
    "MailingBatchFallback",
    "MailingBatchList",
    "MailingBatchMode",
    "MailingBatchReport",
    "MailingBatchReportRowsItem",
    "MailingBatchRequest",
    "MailingBatchRequestChannel",
    "MailingBatchRequestMode",
    "MailingBatchRequestOptions",
    "MailingBatchRequestOptionsAddressCheck",
    "MailingBatchRequestOptionsAddressPlacement",
    "MailingBatchRequestOptionsArchiveYears",
    "MailingBatchRequestOptionsEnvelopeWindows",
    "MailingBatchRequestOptionsPostage",
    "MailingBatchRequestOptionsReturnedMail",
    "MailingBatchRow",
    "MailingBatchRowError",
    "MailingBatchRowFields",
    "MailingBatchStatus",
    "MailingElectronic",
    "MailingElectronicFallback",
    "MailingElectronicRecipientKind",
    "MailingPostage",
    "MailingPostageSpeed",
    "MailingQuote",
    "MailingQuoteLinesItem",
    "MailingRequest",
    "MailingRequestChannel",
    "MailingRequestMode",
    "MailingRequestOptions",
    "MailingRequestOptionsAddressCheck",
    "MailingRequestOptionsAddressPlacement",
    "MailingRequestOptionsArchiveYears",
    "MailingRequestOptionsEnvelopeWindows",
    "MailingRequestOptionsPostage",
    "MailingRequestOptionsReturnedMail",
    "OpenApiDocument",
    "PartnerBreaker",
    "PartnerBreakerState",
    "PdfLetterContent",
    "PostalAddress",
    "PostalAddressCountry",
    "ProofLink",
    "ProofLinkKind",
    "QuoteEstimate",
    "QuoteEstimateCurrency",
    "QuoteEstimateDefaultsAppliedItem",
    "QuoteEstimateInputs",
    "QuoteEstimateRequest",
    "QuoteEstimateRequestInputs",
    "QuoteLineItem",
    "QuoteRoute",
    "Readiness",
    "ReadinessPostgres",
    "ReadinessStatus",
    "RequestWarning",
    "RequestWarningCode",
    "RouteResult",
    "RouteResultFrom",
    "RouteResultGeometry",
    "RouteResultGeometryType",
    "RouteResultTo",
    "SearchCatalogueMode",
    "SearchCompaniesStatus",
    "SearchFuelStationsQuery",
    "SearchFuelStationsQueryFuel",
    "SearchFuelStationsQuerySort",
    "SearchResults",
    "SearchResultsMode",
    "SearchResultsResultsItem",
    "SearchResultsResultsItemKind",
    "SearchResultsResultsItemMatchedByItem",
    "ServiceRequest",
    "ServiceRequestInput",
    "ServiceRequestInputKind",
    "ServiceRequestKind",
    "ServiceRequestList",
    "ServiceRequestStatus",
    "Settlement",
    "SettlementBalancesItem",
    "SettlementCurrency",
    "SettlementMethod",
    "SettlementTransfersItem",
    "Shipment",
    "ShipmentChannel",
    "ShipmentDocument",
    "ShipmentDocumentAddressPlacement",
    "ShipmentDocumentKind",
    "ShipmentDocumentLetter",
    "ShipmentEventsItem",
    "ShipmentEventsItemStatus",
    "ShipmentList",
    "ShipmentMode",
    "ShipmentProofsItem",
    "ShipmentProofsItemKind",
    "ShipmentReturnedMail",
    "ShipmentStatus",
    "SiretRecipient",
    "TextSegment",
    "TextSegmentType",
    "V1AiFillResult",
    "V1AiFillResultRejectedItem",
    "V1AiFillResultValues",
    "V1AiLetterResult",
    "V1AiToolResult",
    "V1TestAdvance",
    "V1TestAdvanceStatus",
    "WebhookEvent",
    "WebhookEventData",
    "WebhookEventDataDetails",
    "WebhookEventDataEndpoint",
    "WebhookEventDataEndpointEventsItem",
    "WebhookEventDataProof",
    "WebhookEventDataProofKind",
    "WebhookEventType",
)

# No longer in the API's document; kept for code written for an earlier SDK (scripts/local/sdk-generation.ts).
from .mailing_address_country import MailingAddressCountry  # noqa: E402

__all__ += ("MailingAddressCountry",)
