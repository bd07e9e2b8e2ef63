import Joi from 'joi';

const place = Joi.string().min(3).max(300).description('An address, or "lon,lat"');

export const routeQuery = Joi.object({
  from: place.required(),
  to: place.required(),
  geometry: Joi.boolean().default(false).description('true adds a simplified path'),
});

const end = Joi.object({ label: Joi.string().required(), lon: Joi.number().required(), lat: Joi.number().required() });

export const routeResultSchema = Joi.object({
  from: end.required(),
  to: end.required(),
  distanceMeters: Joi.number().integer().required(),
  distanceKm: Joi.number().required(),
  durationSeconds: Joi.number().integer().required(),
  durationMinutes: Joi.number().integer().required(),
  geometry: Joi.object({
    type: Joi.string().valid('LineString').required(),
    coordinates: Joi.array().items(Joi.array().items(Joi.number()).length(2)).required(),
  }).description('Simplified path as GeoJSON [lon, lat] pairs, with geometry=true'),
}).label('RouteResult');
