import Joi from 'joi';

export const searchQuerySchema = Joi.object({
  q: Joi.string().min(1).max(200).required().description('Keywords or a sentence'),
  limit: Joi.number().integer().min(1).max(50).default(8),
  mode: Joi.string().valid('hybrid', 'lexical').default('hybrid').description('lexical never calls the semantic engine'),
});

export const searchResultsSchema = Joi.object({
  query: Joi.string().required(),
  mode: Joi.string().valid('hybrid', 'lexical').required().description('lexical when the semantic engine was not used or was unavailable'),
  results: Joi.array()
    .items(
      Joi.object({
        kind: Joi.string().valid('letter', 'calculator', 'ai_tool', 'quote').required(),
        slug: Joi.string().required(),
        title: Joi.string().required(),
        category: Joi.string().required(),
        summary: Joi.string().required(),
        score: Joi.number().required(),
        matchedBy: Joi.array().items(Joi.string().valid('lexical', 'semantic')).required(),
      }),
    )
    .required(),
}).label('SearchResults');
