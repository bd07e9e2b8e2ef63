import Joi from 'joi';

export const fuelPricesQuery = Joi.object({
  department: Joi.string()
    .pattern(/^(\d{2,3}|2[AB])$/)
    .description('Department code, e.g. 69, 974 or 2A: adds its averages'),
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
  })
    .required()
    .description('Average price in euros per liter (3 decimals), null when no station sells that fuel'),
});

export const fuelPricesSchema = Joi.object({
  unit: Joi.string().valid('EUR/L').required(),
  national: averages.required(),
  department: averages.keys({ code: Joi.string().required() }).description('Only with ?department='),
}).label('FuelPrices');

/** Coordinates in a query string: empty or "null" mean absent. */
const coordinate = (bound: number) => Joi.number().min(-bound).max(bound).allow(null).empty(Joi.valid('', 'null'));

export const fuelStationsQuery = Joi.object({
  fuel: Joi.string().valid('gazole', 'sp95-e10', 'sp98', 'e85', 'gplc').default('gazole'),
  lat: coordinate(90).description('Latitude of the centre (with lon)'),
  lon: coordinate(180).description('Longitude of the centre (with lat)'),
  insee: Joi.string()
    .pattern(/^(\d{5}|2[AB]\d{3})$/)
    .description(
      'INSEE commune code: its stations; with lat/lon as centre (else the commune centre), the search widens to radiusKm when the commune has fewer than 3 stations',
    ),
  radiusKm: Joi.number().min(1).max(30).default(10),
  sort: Joi.string().valid('price', 'distance').default('price').description('price: cheapest first, then nearest; distance: nearest first'),
  limit: Joi.number().integer().min(1).max(50).default(20),
})
  .and('lat', 'lon')
  .or('lat', 'insee')
  .messages({ 'object.missing': 'give lat and lon, or insee', 'object.and': 'lat and lon go together' });

const station = Joi.object({
  id: Joi.string().required().description('Station identifier in the official data'),
  address: Joi.string().allow('').required(),
  postcode: Joi.string().allow('').required(),
  city: Joi.string().allow('').required(),
  lat: Joi.number().required(),
  lon: Joi.number().required(),
  distanceKm: Joi.number().allow(null).required().description('From the centre, as the crow flies (1 decimal); null when the commune centre is unknown'),
  priceEurPerLiter: Joi.number().required(),
  priceUpdatedAt: Joi.string().allow(null).required().description('When the station declared this price'),
}).label('FuelStation');

export const fuelStationsSchema = Joi.object({
  fuel: Joi.string().required(),
  unit: Joi.string().valid('EUR/L').required(),
  sort: Joi.string().valid('price', 'distance').required(),
  radiusKm: Joi.number().required(),
  centre: Joi.object({ lat: Joi.number().required(), lon: Joi.number().required(), label: Joi.string().required() })
    .label('FuelSearchCentre')
    .allow(null)
    .required(),
  commune: Joi.object({ insee: Joi.string().required(), name: Joi.string().required() }).label('FuelSearchCommune').allow(null).required(),
  widened: Joi.boolean().required().description('True when the commune had fewer than 3 stations and the radius around the centre was searched too'),
  stations: Joi.array().items(station).required(),
}).label('FuelStations');
