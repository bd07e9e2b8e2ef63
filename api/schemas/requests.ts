import Joi from 'joi';
import { REQUEST_KINDS, REQUEST_STATUSES } from '../../domain/requests/service-requests.js';
import { listEnvelope, pageQuery } from './common.js';

export const serviceRequestInputSchema = Joi.object({
  kind: Joi.string()
    .valid(...REQUEST_KINDS)
    .required()
    .description('What is missing from the catalogue'),
  title: Joi.string().trim().min(3).max(200).required(),
  description: Joi.string().trim().min(10).max(5000).required().description('What it should do, for whom'),
  example: Joi.string().trim().min(1).max(5000).description('An example: a letter you send today, a computation you make by hand'),
  useCase: Joi.string().trim().min(1).max(2000).description('Where it fits in your product'),
  contactEmail: Joi.string().email({ tlds: false }).max(254).description('Who to tell when its status changes'),
}).label('ServiceRequestInput');

export const serviceRequestSchema = Joi.object({
  id: Joi.string().guid().required(),
  kind: Joi.string()
    .valid(...REQUEST_KINDS)
    .required(),
  title: Joi.string().required(),
  description: Joi.string().required(),
  example: Joi.string().allow(null).required(),
  useCase: Joi.string().allow(null).required(),
  contactEmail: Joi.string().allow(null).required(),
  status: Joi.string()
    .valid(...REQUEST_STATUSES)
    .required()
    .description('received → in_review → planned → published, or declined'),
  statusNote: Joi.string().allow(null).required().description('Our note on the latest status (e.g. why it was declined)'),
  createdAt: Joi.string().isoDate().required(),
  updatedAt: Joi.string().isoDate().required(),
}).label('ServiceRequest');

export const serviceRequestListSchema = listEnvelope(serviceRequestSchema, 'ServiceRequestList');

export const serviceRequestListQuery = Joi.object(pageQuery);
