import { catalogue, type ToolData } from '../catalogue/catalogue.js';
import { notFound } from '../errors.js';
import type { FieldValue } from '../letters/values.js';
import { checkInputs, requireInputs } from '../calculations/compute.js';
import type { Inputs } from '../calculations/calculators.js';
import { toolOutputSchema } from './answers.js';
import type { GenerationTask } from './task.js';
import { outputSchema } from './generate.js';
import { amountsIn, datesIn, sentencesOf } from './extract.js';

export interface PreparedTool {
  tool: ToolData;
  inputs: Inputs;
}

/** 404 for an unknown tool, 422 for invalid or missing inputs: all before anything is billed. */
export function prepareTool(slug: string, given: Record<string, FieldValue>): PreparedTool {
  const tool = catalogue().aiTools.get(slug);
  if (!tool) throw notFound(`No AI tool "${slug}" in the catalogue.`);
  const inputs = checkInputs(tool, given);
  requireInputs(tool, inputs);
  return { tool, inputs };
}

export function toolTask({ tool, inputs }: PreparedTool): GenerationTask {
  const labelled = Object.fromEntries(
    tool.inputs
      .filter((f) => inputs[f.name] !== undefined)
      .map((f) => [f.name, { label: f.label, value: f.options?.find((o) => o.value === inputs[f.name])?.label ?? inputs[f.name] }]),
  );
  return {
    prompt: `tools/${tool.slug}`,
    data: { tool: { title: tool.title, summary: tool.summary }, inputs: labelled },
    output: outputSchema('tool_text', toolOutputSchema),
    maxTokens: 3000,
  };
}

const optionLabel = (tool: ToolData, name: string, value: unknown): string =>
  tool.inputs.find((f) => f.name === name)?.options?.find((o) => o.value === value)?.label ?? String(value);
const euros = (cents: number): string => `${(cents / 100).toFixed(2).replace('.', ',')} €`;

/** Spacing and capitals as French typography wants them; the words stay. */
function tidy(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .replace(/[ \t]+/g, ' ')
        .replace(/\s+([,.])/g, '$1')
        .replace(/\s*([;:!?])/g, ' $1')
        .replace(/([,.;:!?])(?=[^\s\d.,])/g, '$1 ')
        .replace(/(^|[.!?]\s+)(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase())
        .trim(),
    )
    .join('\n\n');
}

/** Test keys: each tool's deterministic stand-in, derived from its inputs only. */
export function simulateTool({ tool, inputs }: PreparedTool): { text: string } {
  const source = String(inputs.text ?? inputs.receivedText ?? '');
  const sentences = sentencesOf(tidy(source));
  const facts = [...datesIn(source).map((d) => `date : ${d}`), ...amountsIn(source).map((c) => `montant : ${euros(c)}`)];
  switch (tool.slug) {
    case 'reformuler-ton-formel': {
      const body = inputs.length === 'concise' ? sentences.slice(0, 2) : sentences;
      const extra = inputs.length === 'detaillee' ? ['Je reste à votre disposition pour tout renseignement complémentaire.'] : [];
      return {
        text: [
          'Madame, Monsieur,',
          [...body, ...extra].join(' '),
          "Je vous prie d'agréer, Madame, Monsieur, l'expression de mes salutations distinguées.",
        ].join('\n\n'),
      };
    }
    case 'resumer-courrier-recu':
      return {
        text: [
          `Résumé (${optionLabel(tool, 'focus', inputs.focus)}) : ${sentences.slice(0, 2).join(' ')}`,
          ...(facts.length ? [`Relevé dans le courrier : ${facts.join(' ; ')}.`] : []),
        ].join('\n\n'),
      };
    case 'corriger-orthographe':
      return { text: tidy(source) };
    case 'expliquer-courrier-administratif':
      return {
        text: [
          `Ce courrier vient de : ${optionLabel(tool, 'senderType', inputs.senderType)}.`,
          `En bref : ${sentences[0] ?? source}`,
          ...(facts.length ? [`À noter : ${facts.join(' ; ')}.`] : []),
          "En cas de doute, contactez l'expéditeur avec les références du courrier.",
        ].join('\n\n'),
      };
    default:
      return {
        text: [
          'Madame, Monsieur,',
          `J'accuse réception de votre courrier. Ma réponse : ${optionLabel(tool, 'intent', inputs.intent).toLowerCase()}.`,
          ...(inputs.details ? [tidy(String(inputs.details))] : []),
          "Je vous prie d'agréer, Madame, Monsieur, l'expression de mes salutations distinguées.",
        ].join('\n\n'),
      };
  }
}
