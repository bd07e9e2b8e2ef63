import Joi from 'joi';

export const fuelPricesQuery = Joi.object({
  department: Joi.string().pattern(/^(\d{2,3}|2[AB])$/).description('Department code, e.g. 69, 974 or 2A: adds its averages'),
});

const averages = Joi.object({
  stations: Joi.number().integer().required().description('Stations in the average'),
  prices: Joi.object({
    gazole: Joi.number().allow(null).required(),
    sp95: Joi.number().allow(null).required(),
    'sp95-e10': Joi.number().allow(null).required(),
    sp98: Joi.number().allow(null).required(),
    e85: Joi.number().allow(null).required(),
    gplc: Joi.number().allow(null).required(),
  }).required().description('Average price in euros per liter (3 decimals), null when no station sells that fuel'),
});

export const fuelPricesSchema = Joi.object({
  unit: Joi.string().valid('EUR/L').required(),
  national: averages.required(),
  department: averages.keys({ code: Joi.string().required() }).description('Only with ?department='),
}).label('FuelPrices');
