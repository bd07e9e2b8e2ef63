import Joi from 'joi';
import { SIRET_PATTERN } from '../../domain/lookups/companies.js';

export const companySearchQuery = Joi.object({
  q: Joi.string().min(3).max(200).required().description('Name, trade name, SIREN or SIRET'),
  limit: Joi.number().integer().min(1).max(10).default(5),
  status: Joi.string().valid('active', 'all').default('active').description('all includes closed establishments'),
});

export const siretParams = Joi.object({
  siret: Joi.string().pattern(SIRET_PATTERN).required().description('SIRET, exactly 14 digits'),
});

const place = Joi.object({
  siret: Joi.string().allow('').required(),
  address: Joi.string().allow('').required(),
  postcode: Joi.string().allow('').required(),
  city: Joi.string().allow('').required(),
});
const status = Joi.string().valid('active', 'closed');

export const companyResultsSchema = Joi.object({
  results: Joi.array()
    .items(
      Joi.object({
        siren: Joi.string().required(),
        name: Joi.string().allow('').required(),
        acronym: Joi.string().allow(null).required(),
        status: status.required(),
        headOffice: place.required(),
        activity: Joi.string().allow(null).required().description('NAF/APE code'),
        establishments: Joi.number().integer().required(),
      }).label('CompanySummary'),
    )
    .required(),
}).label('CompanyResults');

export const companyProfileSchema = Joi.object({
  siret: Joi.string().required(),
  establishment: place
    .keys({
      status: status.required(),
      isHeadOffice: Joi.boolean().required(),
      activity: Joi.string().allow(null).required(),
      createdOn: Joi.string().allow(null).required(),
    })
    .required()
    .description('Establishment status and address'),
  company: Joi.object({
    siren: Joi.string().required(),
    name: Joi.string().allow('').required(),
    acronym: Joi.string().allow(null).required(),
    status: status.required(),
    category: Joi.string().allow(null).required().description('PME, ETI or GE'),
    legalForm: Joi.string().allow(null).required().description('Legal category code (catégorie juridique)'),
    createdOn: Joi.string().allow(null).required(),
    establishments: Joi.number().integer().required(),
  }).required(),
  headOffice: place.required(),
  activity: Joi.object({ code: Joi.string().allow(null).required() }).required(),
  headcount: Joi.object({ range: Joi.string().allow(null).required().description("INSEE headcount range code (tranche d'effectif)") }).required(),
  dataFreshness: Joi.string().allow(null).required().description('When the directory last updated this company'),
}).label('CompanyProfile');
