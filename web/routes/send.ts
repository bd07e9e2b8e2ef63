import type Router from '@koa/router';
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import type Joi from 'joi';
import { catalogue, findLetter, letterFields } from '../../domain/catalogue/catalogue.js';
import { isLiveEnabled } from '../../domain/access/accounts.js';
import { accountCaller, mailingPreviewPdf, sendMailingOnce } from '../../domain/developers/send-mailing.js';
import { budgets, PREVIEW_WINDOW_MINUTES, PREVIEWS_PER_ACCOUNT, reserve } from '../../domain/developers/throttle.js';
import { DomainError, InsufficientBalance } from '../../domain/errors.js';
import { quoteMailing } from '../../domain/mailings/quote.js';
import type { MailingAddressInput, MailingRequest } from '../../domain/mailings/request.js';
import { MODE_LABELS } from '../../domain/mailings/states.js';
import { OWN_PDF_REFUSALS, type OwnPdfRefusal } from '../../domain/mailings/own-pdf.js';
import { mailingRequestSchema } from '../../api/schemas/mailings.js';
import { freeLetter } from '../../domain/letters/free-letter.js';
import { fromDomainError } from '../../api/errors.js';
import { answerFramedPdf, type WebKit } from '../kit.js';
import { queryText } from '../forms.js';
import { REFUSALS } from '../refusals.js';
import { isUuid } from '../../lib/text.js';
import { BASE, infoPage } from '../pages/layout.js';
import { count, euros } from '../pages/format.js';
import { channelLabel, LETTER_KINDS, sendFormPage, sendReviewPage, type ChosenLetter, type FieldError, type LetterKind } from '../pages/send.js';

/** The largest form of the developer space: a PDF of SPEC.md's 1 MB body, base64, urlencoded (web/app.ts reads the body). */
export const SEND_FORM_LIMIT = '2mb';

const PDF_REASONS: Record<OwnPdfRefusal, string> = {
  unreadable: 'le fichier n’est pas un PDF lisible',
  encrypted: 'le PDF est chiffré ou protégé par mot de passe',
  no_pages: 'le PDF n’a aucune page',
  active_content: 'le PDF contient du contenu actif (script, action, formulaire)',
  page_size: 'une page n’est pas au format A4 portrait',
  too_many_sheets: 'le PDF compte trop de feuilles pour une enveloppe',
  font_not_embedded: 'une police n’est pas incorporée au PDF',
  window_not_blank: 'la zone de la fenêtre de la page 1 n’est pas vierge',
};

const kindOf = (text: string): LetterKind => ((LETTER_KINDS as readonly string[]).includes(text) ? (text as LetterKind) : 'catalogue');

/** The catalogue letter and provider named, with the fields a person fills (the addresses fill the others); undefined when unknown. */
function chosenLetter(slug: string, providerSlug: string): ChosenLetter | undefined {
  if (!slug) return undefined;
  try {
    const { letter, provider } = findLetter(slug, providerSlug || undefined);
    return { letter, provider: provider?.slug ?? '', fields: letterFields(letter, provider).filter((field) => !field.filledFrom) };
  } catch {
    return undefined;
  }
}

/** Where a field of the API's request is on the form: its fieldset, or a catalogue field's own input. */
function formKeyOf(path: string, catalogueFields: readonly string[]): string {
  if (path.startsWith('sender')) return 'sender';
  if (path === 'recipientEmail') return 'recipient_email';
  if (path.startsWith('recipient')) return 'recipient';
  if (path === 'channel') return 'channel';
  if (path.startsWith('electronic.consent')) return 'consent';
  if (path.startsWith('electronic')) return 'electronic';
  if (path === 'letter.pdf') return 'pdf';
  if (path === 'options.addressPlacement') return 'placement';
  if (path === 'options.addressCheck') return 'address_check';
  if (path === 'sendAt') return 'send_at';
  if (path === 'letter.title' || path === 'letter.body') return path.slice('letter.'.length);
  const field = path.replace(/^letter\.fields\./, '');
  if (catalogueFields.includes(field)) return `f_${field}`;
  if (path === 'mode' || path === 'reference') return path;
  return path.startsWith('letter') ? 'letter' : '';
}

const addressOf = (form: URLSearchParams, prefix: string): Record<string, unknown> => ({
  name: form.get(`${prefix}_name`)?.trim() ?? '',
  lines: (form.get(`${prefix}_lines`) ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== ''),
  postcode: form.get(`${prefix}_postcode`)?.trim() ?? '',
  city: form.get(`${prefix}_city`)?.trim() ?? '',
});

const recipientGiven = (form: URLSearchParams): boolean =>
  ['name', 'lines', 'postcode', 'city'].some((part) => (form.get(`recipient_${part}`) ?? '').trim() !== '');

/** A suggestion of the address base chosen on the form ("Utiliser cette adresse"): the recipient's lines, postcode and city become it. */
function useSuggestion(form: URLSearchParams): void {
  const chosen = form.get('suggestion');
  form.delete('suggestion');
  if (!chosen) return;
  let suggestion: { lines?: unknown; postcode?: unknown; city?: unknown };
  try {
    suggestion = JSON.parse(chosen) as typeof suggestion;
  } catch {
    return;
  }
  const { lines, postcode, city } = suggestion ?? {};
  if (!Array.isArray(lines) || !lines.every((line) => typeof line === 'string') || typeof postcode !== 'string' || typeof city !== 'string') return;
  form.set('recipient_lines', lines.join('\n'));
  form.set('recipient_postcode', postcode);
  form.set('recipient_city', city);
}

/**
 * The channel's part of the body: nothing for paper (the API's default), else the recipient's
 * email and `electronic` (its consent only for a consumer, and only the parts typed in, so that
 * the API names what is missing).
 */
function electronicPart(form: URLSearchParams, text: (name: string) => string): Record<string, unknown> {
  if (text('channel') !== 'electronic') return {};
  const recipientKind = text('recipient_kind') || 'professional';
  const consent = {
    ...(text('consent_date') ? { date: text('consent_date') } : {}),
    ...(text('consent_means').trim() ? { means: text('consent_means').trim() } : {}),
  };
  return {
    channel: 'electronic',
    ...(text('recipient_email').trim() ? { recipientEmail: text('recipient_email').trim() } : {}),
    electronic: {
      recipientKind,
      ...(recipientKind === 'consumer' && Object.keys(consent).length ? { consent } : {}),
      fallback: form.get('fallback') ? 'paper' : 'none',
    },
  };
}

/** The form as the body of POST /v1/mailings (before its Joi schema). */
function requestBody(form: URLSearchParams, kind: LetterKind, chosen: ChosenLetter | undefined): Record<string, unknown> {
  // Browsers send line breaks as CRLF, a reposted review form too: one form, one request (and one fingerprint).
  const text = (name: string): string => (form.get(name) ?? '').replace(/\r\n/g, '\n');
  let letter: Record<string, unknown>;
  if (kind === 'libre') letter = { title: text('title').trim(), body: text('body') };
  else if (kind === 'pdf') letter = { pdf: text('pdf'), ...(text('pdf_title').trim() ? { title: text('pdf_title').trim() } : {}) };
  else {
    const fields = Object.fromEntries((chosen?.fields ?? []).map((f) => [f.name, text(`f_${f.name}`).trim()]).filter(([, v]) => v !== ''));
    letter = { slug: chosen?.letter.slug ?? text('slug'), ...(chosen?.provider ? { provider: chosen.provider } : {}), fields };
  }
  return {
    mode: text('mode'),
    letter,
    sender: addressOf(form, 'sender'),
    ...(kind !== 'catalogue' || !chosen?.provider || recipientGiven(form) ? { recipient: addressOf(form, 'recipient') } : {}),
    ...(text('reference').trim() ? { reference: text('reference').trim() } : {}),
    ...(text('send_at') ? { sendAt: text('send_at') } : {}),
    ...electronicPart(form, text),
    options: {
      ...(kind === 'pdf' ? { color: !!form.get('color'), duplex: !!form.get('duplex'), addressPlacement: text('placement') || 'insert_blank_page' } : {}),
      ...(text('address_check') ? { addressCheck: text('address_check') } : {}),
    },
  };
}

/**
 * Joi's refusal of the body, in French, next to its field. `letter` is one of three shapes, and Joi
 * only says that none matched: a free-form letter is checked alone for its own refusals (`under`
 * 'letter'), an own PDF's is the file's.
 */
function shapeErrors(error: Joi.ValidationError, catalogueFields: readonly string[], kind: LetterKind, under?: string): FieldError[] {
  return error.details.flatMap((detail): FieldError[] => {
    const path = [...(under ? [under] : []), ...detail.path].join('.');
    if (path === 'letter' && detail.type === 'alternatives.match') {
      if (kind === 'libre') return [];
      if (kind === 'pdf') return [{ key: 'pdf', text: 'Le fichier choisi ne peut pas être envoyé : 750 Ko au plus, lu en entier avant l’envoi.' }];
      return [{ key: 'letter', text: 'Une valeur de la lettre est trop longue (5 000 caractères au plus).' }];
    }
    // The recipient is an address or a SIRET: Joi says neither matched.
    if (path === 'recipient' && detail.type === 'alternatives.match')
      return [
        { key: 'recipient', text: 'Adresse incomplète ou trop longue : le nom, au moins une ligne d’adresse, le code postal et la commune sont obligatoires.' },
      ];
    const text =
      detail.type === 'any.required' || detail.type === 'string.empty' || detail.type === 'array.min'
        ? 'Ce champ est obligatoire.'
        : detail.type === 'string.max'
          ? `${count(Number(detail.context?.limit))} caractères au plus.`
          : `Valeur refusée (${path}).`;
    return [{ key: formKeyOf(path, catalogueFields), text }];
  });
}

interface FieldProblem {
  field: string;
  message: string;
}

/** A domain refusal, in French, next to its field: addresses with the address base's suggestions, a refused PDF with its reason, missing fields. */
function refusalErrors(error: DomainError, catalogueFields: readonly string[]): FieldError[] {
  if (error instanceof InsufficientBalance)
    return [
      {
        key: '',
        text: `Solde insuffisant : cet envoi coûte ${euros(error.requiredCents)} HT et le solde du compte est de ${euros(error.balanceCents)} HT. Rien n’a été débité ; rechargez le solde (page « Solde et recharges ») puis confirmez à nouveau.`,
      },
    ];
  if (error.code === 'live_not_enabled') return [{ key: 'env', text: REFUSALS.live_not_enabled }];
  if (error.code === 'account_suspended') return [{ key: '', text: REFUSALS.account_suspended }];
  if (error.code === 'sender_identity_unverified') return [{ key: 'channel', text: REFUSALS.sender_identity_unverified }];
  const details = error.details as (Record<string, unknown> & { missingFields?: string[] }) | FieldProblem[] | undefined;
  if (Array.isArray(details))
    return details.map((p) => ({
      key: formKeyOf(p.field, catalogueFields),
      text: `${error.code === 'address_invalid' ? 'Adresse refusée' : 'Valeur refusée'} (${p.field}) : ${p.message}`,
    }));
  if (details?.missingFields)
    return [
      { key: 'letter', text: `Cette lettre demande encore ${details.missingFields.length} champ(s) : ${details.missingFields.join(', ')}.` },
      ...details.missingFields.map((name) => ({ key: formKeyOf(name, catalogueFields), text: 'Champ requis par cette lettre.' })),
    ];
  if (error.code === 'pdf_refused') {
    const reason = details?.reason as OwnPdfRefusal;
    return [{ key: 'pdf', text: `PDF refusé : ${OWN_PDF_REFUSALS.includes(reason) ? PDF_REASONS[reason] : reason}. ${error.message}` }];
  }
  if (error.code === 'address_invalid' && Array.isArray(details?.suggestions))
    return [
      {
        key: formKeyOf(String(details.field ?? 'recipient'), catalogueFields),
        text: `La Base Adresse Nationale ne confirme pas l’adresse du destinataire. ${details.suggestions.length ? 'Adresses proches :' : 'Vérifiez le numéro, la voie et la commune.'}`,
        suggestions: details.suggestions as MailingAddressInput[],
      },
    ];
  const status = fromDomainError(error)?.status ?? 500;
  if (status === 503 || status === 502)
    return [{ key: '', text: 'Un service nécessaire à l’envoi ne répond pas pour le moment. Rien n’a été débité ; réessayez dans un instant.' }];
  return [{ key: typeof details?.field === 'string' ? formKeyOf(details.field, catalogueFields) : '', text: `Refusé : ${error.message}` }];
}

/**
 * Sending a letter from the developer space: the form, the review (price and preview), the
 * confirmation. A thin edge over domain/developers/send-mailing.ts.
 */
export function sendRoutes(router: Router, kit: WebKit): void {
  const { db } = kit.deps;

  async function showForm(ctx: Context, status: number, form: URLSearchParams, errors?: FieldError[]): Promise<void> {
    const session = ctx.state.session!;
    const kind = kindOf(form.get('type') ?? '');
    const chosen = chosenLetter(form.get('slug') ?? '', form.get('provider') ?? '');
    const letters = [...catalogue().letters.values()].map(({ slug, title }) => ({ slug, title }));
    const liveEnabled = await isLiveEnabled(db, session.user!.accountId);
    kit.page(ctx, status, sendFormPage(session, { kind, values: form, letters, chosen, liveEnabled, errors }));
  }

  /** The form as a validated request, or the page that says what to fix. */
  async function parse(ctx: Context): Promise<{ request: MailingRequest; env: 'test' | 'live'; fields: string[] } | undefined> {
    const form = ctx.state.form!;
    const kind = kindOf(form.get('type') ?? '');
    const chosen = kind === 'catalogue' ? chosenLetter(form.get('slug') ?? '', form.get('provider') ?? '') : undefined;
    const fields = chosen?.fields.map((f) => f.name) ?? [];
    if (kind === 'catalogue' && !chosen) {
      await showForm(ctx, 400, form, [{ key: '', text: 'Choisissez une lettre du catalogue.' }]);
      return undefined;
    }
    if (kind === 'pdf' && !form.get('pdf')) {
      await showForm(ctx, 400, form, [{ key: 'pdf', text: 'Choisissez un fichier PDF.' }]);
      return undefined;
    }
    const body = requestBody(form, kind, chosen);
    const letterError = kind === 'libre' ? freeLetter.validate(body.letter, { abortEarly: false }).error : undefined;
    const { value, error } = mailingRequestSchema.validate(body, { abortEarly: false });
    if (letterError || error) {
      const errors = [...(letterError ? shapeErrors(letterError, fields, kind, 'letter') : []), ...(error ? shapeErrors(error, fields, kind) : [])];
      await showForm(ctx, 400, form, errors);
      return undefined;
    }
    return { request: value as MailingRequest, env: form.get('env') === 'live' ? 'live' : 'test', fields };
  }

  router.get('/envois/nouveau', kit.allowed('mailings'), async (ctx) => {
    const form = new URLSearchParams({ type: kindOf(queryText(ctx, 'type')), key: randomUUID(), mode: 'simple', env: 'test' });
    form.set('slug', queryText(ctx, 'lettre'));
    form.set('provider', queryText(ctx, 'fournisseur'));
    await showForm(ctx, 200, form);
  });

  router.post('/envois/nouveau', kit.allowed('mailings'), async (ctx) => {
    const session = ctx.state.session!;
    const form = ctx.state.form!;
    const step = form.get('step');
    if (step === 'edit') return showForm(ctx, 200, form);
    useSuggestion(form);
    const parsed = await parse(ctx);
    if (!parsed) return;
    const { request, env, fields } = parsed;
    const accountId = session.user!.accountId;
    try {
      const caller = await accountCaller(db, accountId, env);
      if (step !== 'confirm') {
        const price = await quoteMailing(kit.deps, caller, request);
        const title = 'slug' in request.letter ? findLetter(request.letter.slug, undefined).letter.title : (request.letter.title ?? 'Document PDF');
        const recipient =
          request.recipient && 'lines' in request.recipient
            ? [request.recipient.name, ...request.recipient.lines, `${request.recipient.postcode} ${request.recipient.city}`]
            : [];
        return kit.page(
          ctx,
          200,
          sendReviewPage(session, {
            values: form,
            title,
            modeLabel: MODE_LABELS[request.mode],
            channelLabel: channelLabel(request),
            env,
            recipient: recipient.length ? recipient : ['l’adresse du fournisseur'],
            price,
            // Said before the confirmation; the debit when recording stays the authority.
            m:
              env === 'live' && caller.balanceCents < price.amountCents
                ? {
                    kind: 'error',
                    text: `Solde insuffisant pour cet envoi : le solde du compte est de ${euros(caller.balanceCents)} HT. Rechargez-le avant de confirmer.`,
                  }
                : undefined,
          }),
        );
      }
      // The form's key, drawn when it was shown; a forged or missing one sends once all the same (a key of its own).
      const key = form.get('key') ?? '';
      const outcome = await sendMailingOnce(kit.deps, caller, isUuid(key) ? key : randomUUID(), request);
      switch (outcome.kind) {
        case 'created':
        case 'already_sent':
          return ctx.redirect(`${BASE}/envois?env=${env}`);
        case 'in_progress':
          return kit.page(
            ctx,
            409,
            infoPage(
              session,
              'Envoi en cours',
              { kind: 'notice', text: 'Cet envoi est déjà en cours de création : il apparaîtra dans la liste des envois.' },
              { href: `${BASE}/envois?env=${env}`, text: 'Envois' },
            ),
          );
        case 'changed':
          return showForm(ctx, 409, form, [
            { key: '', text: 'Ce formulaire a déjà servi à un autre envoi. Pour envoyer une nouvelle lettre, recommencez depuis « Envoyer une lettre ».' },
          ]);
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return showForm(ctx, fromDomainError(error)?.status ?? 500, form, refusalErrors(error, fields));
    }
  });

  // The preview of the review page, posted into its frame: the PDF the mailing would print, nothing charged.
  router.post('/envois/nouveau/apercu', kit.allowed('mailings'), async (ctx) => {
    const parsed = await parse(ctx);
    if (!parsed) return;
    const accountId = ctx.state.session!.user!.accountId;
    if (!(await reserve(db, budgets.preview(accountId))))
      return kit.page(
        ctx,
        429,
        infoPage(ctx.state.session, 'Trop d’aperçus', {
          kind: 'error',
          text: `Ce compte a demandé ${count(PREVIEWS_PER_ACCOUNT)} aperçus en ${count(PREVIEW_WINDOW_MINUTES)} minutes : réessayez dans quelques minutes. L’envoi reste possible.`,
        }),
      );
    try {
      const caller = await accountCaller(db, accountId, 'test');
      const pdf = await mailingPreviewPdf(kit.deps, caller, parsed.request);
      answerFramedPdf(ctx, 'apercu.pdf', pdf);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return showForm(ctx, fromDomainError(error)?.status ?? 500, ctx.state.form!, refusalErrors(error, parsed.fields));
    }
  });
}
