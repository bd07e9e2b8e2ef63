import { catalogue, letterFields, type Field, type ToolData } from '../domain/catalogue/catalogue.js';

/** A request that the operation accepts: what the OpenAPI document shows, and its samples (api/code-samples.ts). */
export interface RequestExample {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
}

/**
 * A field's example value, or its first option. An optional date is left out: its example goes
 * stale (a quote's send date must be today or later) and the samples must run on any day.
 */
function fieldValues(fields: Field[]): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const field of fields) {
    if (field.type === 'date' && !field.required) continue;
    const value = field.example ?? field.options?.[0]?.value;
    if (value !== undefined && (field.required || field.example !== undefined)) values[field.name] = value;
  }
  return values;
}

const firstTool = (tools: Map<string, ToolData>, wanted?: (t: ToolData) => boolean): ToolData => [...tools.values()].find(wanted ?? (() => true))!;

/**
 * A whole PDF, base64 encoded, that the own-PDF checks accept (docs/own-pdf.md): one blank A4
 * portrait page, no fonts, written once by pdf-lib (`PDFDocument.create()`, `addPage([595.28,
 * 841.89])`, `save({ useObjectStreams: false })`), so that the quote sample runs as pasted. A real
 * letter carries its own file, about 750 KB at most.
 */
const BLANK_A4_PDF =
  'JVBERi0xLjcKJYGBgYEKCjEgMCBvYmoKPDwKL1R5cGUgL1BhZ2VzCi9LaWRzIFsgMyAwIFIgXQovQ291bnQgMQo+PgplbmRvYmoKCjIgMCBvYmoKPDwKL1R5cGUgL0NhdGFsb2cKL1BhZ2VzIDEgMCBSCj4+CmVuZG9iagoKMyAwIG9iago8PAovVHlwZSAvUGFnZQovUGFyZW50IDEgMCBSCi9SZXNvdXJjZXMgPDwKPj4KL01lZGlhQm94IFsgMCAwIDU5NS4yOCA4NDEuODkgXQo+PgplbmRvYmoKCnhyZWYKMCA0CjAwMDAwMDAwMDAgNjU1MzUgZiAKMDAwMDAwMDAxNiAwMDAwMCBuIAowMDAwMDAwMDc2IDAwMDAwIG4gCjAwMDAwMDAxMjYgMDAwMDAgbiAKCnRyYWlsZXIKPDwKL1NpemUgNAovUm9vdCAyIDAgUgo+PgoKc3RhcnR4cmVmCjIyMwolJUVPRg==';

const SAMPLE_ID = '0b9e8a8e-6b53-4c1e-9a57-3f0f6c1d2a10';

const address = (name: string, line: string, postcode: string, city: string) => ({ name, lines: [line], postcode, city, country: 'FR' });

/**
 * One accepted request per operation that takes inputs, by operationId: catalogue slugs and
 * field values come from the catalogue itself (its reviewed examples), so they stay valid as it
 * changes. test/e2e/openapi.test.ts checks each against the route's Joi schemas.
 */
export function requestExamples(): Record<string, RequestExample> {
  const data = catalogue();
  const letter = [...data.letters.values()].find((l) => l.providers.length === 0) ?? [...data.letters.values()][0]!;
  const letterWithProvider = [...data.letters.values()].find((l) => l.providers.length > 0);
  const calculator = firstTool(data.calculators);
  const quote = firstTool(data.quotes, (q) => !q.needsRoute);
  const tool = firstTool(data.aiTools);
  return {
    searchCatalogue: { query: { q: 'résiliation abonnement', limit: 8, mode: 'hybrid' } },
    getLetter: letterWithProvider
      ? { params: { slug: letterWithProvider.slug }, query: { provider: letterWithProvider.providers[0]!.slug } }
      : { params: { slug: letter.slug } },
    renderLetter: { params: { slug: letter.slug }, body: { fields: fieldValues(letterFields(letter)) } },
    renderLetterPdf: { params: { slug: letter.slug }, body: { fields: fieldValues(letterFields(letter)) } },
    aiFillLetter: {
      body: { slug: letter.slug, sentence: 'Je conteste l’avis de contravention n° 1234567890 du 14 février 2026 : mon véhicule était au garage.' },
    },
    aiDraftLetter: {
      body: {
        recipient: 'le service client de mon fournisseur d’énergie',
        purpose: 'Obtenir le remboursement du trop-perçu de ma dernière facture de régularisation',
        tone: 'formel',
        facts: ['Facture n° F-2026-118 du 3 mars 2026', 'Trop-perçu de 84,20 €'],
        senderName: 'Marie Dupont',
      },
    },
    aiRunTool: { params: { slug: tool.slug }, body: { inputs: fieldValues(tool.inputs) } },
    createMailing: {
      body: {
        mode: 'registered',
        letter: { title: 'Résiliation de mon contrat', body: 'Madame, Monsieur,\n\nJe vous prie de résilier mon contrat n° 123456.\n\nMarie Dupont' },
        sender: address('Marie Dupont', '12 rue des Lilas', '75011', 'Paris'),
        recipient: address('Service Clients', '5 avenue de la République', '69002', 'Lyon'),
        reference: 'contrat-123456',
        options: { color: false, duplex: false, emailCopy: false },
      },
    },
    quoteMailing: {
      body: {
        mode: 'simple',
        letter: { pdf: BLANK_A4_PDF, title: 'Mise en demeure' },
        sender: address('Marie Dupont', '12 rue des Lilas', '75011', 'Paris'),
        recipient: address('Service Clients', '5 avenue de la République', '69002', 'Lyon'),
        options: { color: true, duplex: true, addressPlacement: 'insert_blank_page' },
      },
    },
    createMailingBatch: {
      body: {
        mode: 'simple',
        letter: {
          title: 'Votre contrat {{contrat}}',
          body: 'Bonjour {{prenom}},\n\nVotre contrat n° {{contrat}} est renouvelé au 1er janvier.\n\nMarie Dupont',
        },
        sender: address('Marie Dupont', '12 rue des Lilas', '75011', 'Paris'),
        rows: [
          {
            recipient: address('Jean Martin', '5 avenue de la République', '69002', 'Lyon'),
            fields: { prenom: 'Jean', contrat: 'C-1001' },
            reference: 'C-1001',
          },
          { recipient: { siret: '35600000000048' }, fields: { prenom: 'Madame, Monsieur', contrat: 'C-1002' }, reference: 'C-1002' },
        ],
        dryRun: true,
      },
    },
    listMailingBatches: { query: { limit: 20 } },
    getMailingBatch: { params: { id: SAMPLE_ID } },
    listMailings: { query: { limit: 20, status: 'posted' } },
    getMailing: { params: { id: SAMPLE_ID } },
    getMailingProof: { params: { id: SAMPLE_ID, kind: 'filing' } },
    cancelMailing: { params: { id: SAMPLE_ID } },
    eraseMailing: { params: { id: SAMPLE_ID } },
    advanceTestMailing: { params: { id: SAMPLE_ID }, body: { step: 2 } },
    downloadProof: { params: { token: 'ZXhhbXBsZS10b2tlbi1mcm9tLWEtcHJvb2YtbGluaw' } },
    // The partners' lookups ask what test/fixtures/partners/ recorded, so that test/e2e/code-samples.test.ts runs them.
    searchCities: { query: { q: '69003', limit: 8 } },
    searchAddresses: { query: { q: '20 avenue de Ségur Paris', limit: 5 } },
    searchCompanies: { query: { q: 'La Poste', limit: 5, status: 'active' } },
    getCompany: { params: { siret: '35600000000048' } },
    getRoute: { query: { from: '20 avenue de Ségur Paris', to: 'Lyon', geometry: false } },
    getFuelPrices: { query: { department: '69' } },
    searchFuelStations: { query: { fuel: 'gazole', insee: '69123', radiusKm: 10, sort: 'price', limit: 20 } },
    computeCalculator: { params: { slug: calculator.slug }, body: { inputs: fieldValues(calculator.inputs) } },
    estimateQuote: { params: { slug: quote.slug }, body: { inputs: fieldValues(quote.inputs) } },
    settleExpenses: {
      body: {
        members: [
          { id: 'ana', name: 'Ana' },
          { id: 'ben', name: 'Ben' },
          { id: 'chloe', name: 'Chloé' },
        ],
        expenses: [
          { label: 'Location', amountCents: 45000, paidBy: 'ana', split: { mode: 'equal' } },
          { label: 'Courses', amountCents: 12000, paidBy: 'ben', split: { mode: 'shares', shares: { ana: 1, ben: 1, chloe: 2 } } },
        ],
      },
    },
    createServiceRequest: {
      body: {
        kind: 'letter',
        title: 'Résiliation d’un abonnement de salle de sport',
        description: 'Un modèle de lettre pour résilier un abonnement de salle de sport pour motif légitime (déménagement).',
        contactEmail: 'dev@example.fr',
      },
    },
    listServiceRequests: { query: { limit: 20 } },
  };
}
