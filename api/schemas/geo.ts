import Joi from 'joi';

export const citiesQuery = Joi.object({
  q: Joi.string().min(2).max(100).required().description('A 5-digit postcode (every commune sharing it) or the start of a commune name'),
  limit: Joi.number().integer().min(1).max(20).default(8).description('Name searches only; a postcode gives all its communes'),
});

export const cityResultsSchema = Joi.object({
  results: Joi.array()
    .items(
      Joi.object({
        label: Joi.string().required().description('"<postcode> <city>": the value of the commune field of quotes and calculators'),
        postcode: Joi.string().required(),
        city: Joi.string().required(),
        insee: Joi.string().required().description('INSEE commune code'),
        department: Joi.string().required(),
      }).label('CityResult'),
    )
    .required(),
}).label('CityResults');

export const addressesQuery = Joi.object({
  q: Joi.string().min(3).max(200).required().description('An address, or its beginning'),
  limit: Joi.number().integer().min(1).max(10).default(5),
});

export const addressResultsSchema = Joi.object({
  results: Joi.array()
    .items(
      Joi.object({
        label: Joi.string().required(),
        street: Joi.string().allow('').required(),
        postcode: Joi.string().required(),
        city: Joi.string().required(),
        lat: Joi.number().required(),
        lon: Joi.number().required(),
      }).label('AddressResult'),
    )
    .required(),
}).label('AddressResults');
