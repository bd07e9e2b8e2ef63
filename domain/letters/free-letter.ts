import Joi from 'joi';

/** A free-form letter: what POST /v1/mailings takes and what an AI draft must fit in. */
export const freeLetter = Joi.object({
  title: Joi.string().min(1).max(200).required(),
  body: Joi.string().min(1).max(50_000).required().description('Plain text, a blank line between paragraphs'),
}).label('FreeLetterContent');
