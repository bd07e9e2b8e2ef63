import Joi from 'joi';

/** Tones a drafted letter can take (AiLetterRequest.tone). */
export const TONES = ['formel', 'cordial', 'ferme'] as const;

/** The model's answer for a drafted letter; its limits keep the result a valid free-form mailing letter. */
export const draftedLetterSchema = Joi.object({
  subject: Joi.string().trim().min(3).max(120).required().description('The "Objet" line'),
  salutation: Joi.string().trim().min(3).max(100).required(),
  paragraphs: Joi.array().items(Joi.string().trim().min(1).max(3000)).min(1).max(8).required(),
  closing: Joi.string().trim().min(3).max(400).required(),
});

/** The model's answer for a catalogue AI tool. */
export const toolOutputSchema = Joi.object({ text: Joi.string().trim().min(1).max(20_000).required() });
