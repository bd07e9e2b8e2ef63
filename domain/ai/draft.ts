import type Joi from 'joi';
import { freeLetter } from '../letters/free-letter.js';
import { draftedLetterSchema, type TONES } from './answers.js';
import { upstreamError } from '../errors.js';
import type { GenerationTask } from './task.js';
import { outputSchema } from './generate.js';

export interface AiLetterRequest {
  recipient?: string;
  purpose: string;
  tone: (typeof TONES)[number];
  facts: string[];
  senderName?: string;
}

export interface DraftedLetter {
  subject: string;
  salutation: string;
  paragraphs: string[];
  closing: string;
}

export function draftTask(request: AiLetterRequest): GenerationTask {
  return {
    prompt: 'draft-letter',
    data: { recipient: request.recipient ?? '', purpose: request.purpose, tone: request.tone, facts: request.facts, senderName: request.senderName ?? '' },
    output: outputSchema('drafted_letter', draftedLetterSchema),
    maxTokens: 2500,
  };
}

/**
 * V1AiLetterResult: the letter as text segments (LetterRender's shape), its text, and the
 * free-form letter for POST /v1/mailings, checked against that endpoint's own schema.
 */
export function letterResult(draft: DraftedLetter) {
  const parts = [`Objet : ${draft.subject}`, draft.salutation, ...draft.paragraphs, draft.closing];
  const letter = { title: draft.subject, body: [draft.salutation, ...draft.paragraphs, draft.closing].join('\n\n') };
  const { error } = (freeLetter as Joi.Schema).validate(letter);
  if (error) throw upstreamError(`The drafted letter cannot be mailed as is (${error.message}); nothing was billed. Please retry.`);
  return {
    title: draft.subject,
    segments: parts.map((text) => ({ type: 'text' as const, text })),
    text: parts.join('\n\n'),
    missingFields: [] as string[],
    letter,
  };
}

const OPENINGS = {
  formel: (purpose: string) => `Je me permets de vous écrire au sujet de la demande suivante : ${purpose}`,
  cordial: (purpose: string) => `Je vous écris au sujet de la demande suivante : ${purpose}`,
  ferme: (purpose: string) => `Par la présente, je vous demande expressément ce qui suit : ${purpose}`,
};
const REQUESTS = {
  formel: 'Je vous remercie de bien vouloir me faire part de votre réponse dans les meilleurs délais.',
  cordial: "Je vous remercie par avance de l'attention que vous porterez à ma demande.",
  ferme: "À défaut de réponse de votre part dans un délai de quinze jours, je me réserve la possibilité d'engager toute démarche utile.",
};
const CLOSINGS = {
  formel: "Je vous prie d'agréer, Madame, Monsieur, l'expression de mes salutations distinguées.",
  cordial: "Je vous prie d'agréer, Madame, Monsieur, mes sincères salutations.",
  ferme: "Je vous prie d'agréer, Madame, Monsieur, mes salutations.",
};

const sentence = (text: string): string => {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/** Test keys: a deterministic letter built from the request alone, in the requested tone. */
export function simulateDraft(request: AiLetterRequest): DraftedLetter {
  const purpose = request.purpose.trim().replace(/\s+/g, ' ');
  const subject = sentence(purpose).replace(/[.!?]$/, '');
  const paragraphs = [sentence(OPENINGS[request.tone](purpose.charAt(0).toLowerCase() + purpose.slice(1))), REQUESTS[request.tone]];
  if (request.facts.length) paragraphs.splice(1, 0, `Pour mémoire : ${request.facts.map((f) => sentence(f)).join(' ')}`);
  return {
    subject: subject.length > 120 ? `${subject.slice(0, 117).trimEnd()}…` : subject,
    salutation: 'Madame, Monsieur,',
    paragraphs: paragraphs.map((p) => (p.length > 3000 ? `${p.slice(0, 2999)}…` : p)),
    closing: CLOSINGS[request.tone],
  };
}
