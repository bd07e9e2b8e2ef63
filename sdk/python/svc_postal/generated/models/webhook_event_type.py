from enum import StrEnum


class WebhookEventType(StrEnum):
    MAILING_ACCEPTED = "mailing.accepted"
    MAILING_AR_SIGNED = "mailing.ar_signed"
    MAILING_BATCH_COMPLETED = "mailing_batch.completed"
    MAILING_BOUNCED = "mailing.bounced"
    MAILING_CANCELED = "mailing.canceled"
    MAILING_CREATED = "mailing.created"
    MAILING_DELIVERED = "mailing.delivered"
    MAILING_ERROR = "mailing.error"
    MAILING_IN_TRANSIT = "mailing.in_transit"
    MAILING_NOTIFIED = "mailing.notified"
    MAILING_POSTED = "mailing.posted"
    MAILING_PRINTED = "mailing.printed"
    MAILING_PROOF_AVAILABLE = "mailing.proof_available"
    MAILING_REFUSED = "mailing.refused"
    MAILING_RETURNED = "mailing.returned"
    MAILING_SENT = "mailing.sent"
    MAILING_UNCLAIMED = "mailing.unclaimed"
    PING = "ping"

    def __str__(self) -> str:
        return str(self.value)
