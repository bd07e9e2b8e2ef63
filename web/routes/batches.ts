import type Router from '@koa/router';
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import { batchRowsFromCsv } from '../../domain/batches/csv.js';
import { checkBatch, type BatchReport } from '../../domain/batches/create.js';
import type { BatchRequest } from '../../domain/batches/request.js';
import { DomainError, NotAllowed } from '../../domain/errors.js';
import { accountCaller, sendBatchOnce } from '../../domain/developers/send-mailing.js';
import type { Caller } from '../../domain/deps.js';
import { batchRequestSchema } from '../../api/schemas/batches.js';
import type { WebKit } from '../kit.js';
import { REFUSALS } from '../refusals.js';
import { BASE } from '../pages/layout.js';
import { BATCH_FORM_FIELDS, batchPage, type BatchForm } from '../pages/batches.js';

const EMPTY: BatchForm = {
  env: 'test',
  mode: 'simple',
  senderName: '',
  senderLine1: '',
  senderPostalCode: '',
  senderCity: '',
  title: '',
  body: '',
  csv: '',
  channel: 'paper',
  recipientKind: 'professional',
  fallback: 'none',
};

/**
 * Mail merge from a CSV file (/envois/lots): the same request as POST /v1/mailing-batches, checked
 * by its Joi schema and the same domain functions; the dry run first, then the batch.
 */
export function batchRoutes(router: Router, kit: WebKit): void {
  const formOf = (ctx: Context): BatchForm => Object.fromEntries(BATCH_FORM_FIELDS.map((name) => [name, kit.form(ctx, name)])) as unknown as BatchForm;

  /** The form as the API's request, or why not (in French). */
  const requestOf = (form: BatchForm): BatchRequest | string => {
    let rows;
    try {
      rows = batchRowsFromCsv(form.csv);
    } catch (error) {
      return (error as Error).message;
    }
    const { value, error } = batchRequestSchema.validate({
      mode: form.mode,
      letter: { title: form.title, body: form.body },
      sender: { name: form.senderName, lines: [form.senderLine1], postcode: form.senderPostalCode, city: form.senderCity },
      rows,
      ...(form.channel === 'electronic'
        ? { channel: 'electronic', electronic: { recipientKind: form.recipientKind || 'professional', fallback: form.fallback || 'none' } }
        : {}),
    });
    if (error) return `Le lot est refusé : ${error.details[0]!.message} (${error.details[0]!.path.join('.')}).`;
    return value as BatchRequest;
  };

  /** Checks (dryRun) or creates; a refusal is shown on the form, with the report when there is one. */
  const handle = async (ctx: Context, create: boolean): Promise<void> => {
    const session = ctx.state.session!;
    const form = formOf(ctx);
    const refuse = (text: string, report?: BatchReport): void => kit.page(ctx, 422, batchPage(session, { form, report, m: { kind: 'error', text } }));
    const request = requestOf(form);
    if (typeof request === 'string') return refuse(request);
    let caller: Caller;
    try {
      caller = await accountCaller(kit.deps.db, session.user!.accountId, form.env === 'live' ? 'live' : 'test');
    } catch (error) {
      if (!(error instanceof NotAllowed)) throw error;
      return refuse(error.code === 'live_not_enabled' ? REFUSALS.live_not_enabled : REFUSALS.account_suspended);
    }
    try {
      if (!create) {
        const { report } = await checkBatch(kit.deps, caller, request);
        return kit.page(ctx, 200, batchPage(session, { form, report, batchKey: randomUUID() }));
      }
      // The confirmation carries the key of its dry run: a second click (or a reload) shows the same batch.
      const outcome = await sendBatchOnce(kit.deps, caller, kit.form(ctx, 'batchKey') || randomUUID(), request);
      switch (outcome.kind) {
        case 'created':
        case 'already_sent':
          return ctx.redirect(`${BASE}/envois?env=${form.env}&batch=${outcome.id}`);
        case 'in_progress':
          return refuse('Ce lot est déjà en cours d’envoi : patientez, puis ouvrez la page des envois.');
        case 'changed':
          return refuse('Ce formulaire a déjà servi à un autre lot. Vérifiez de nouveau le fichier pour l’envoyer.');
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refuse(error.message, error.code === 'batch_invalid' ? (error.details as BatchReport) : undefined);
    }
  };

  router.get('/envois/lots', kit.allowed('mailings'), async (ctx) => {
    kit.page(ctx, 200, batchPage(ctx.state.session!, { form: EMPTY }));
  });
  router.post('/envois/lots/verifier', kit.allowed('mailings'), (ctx) => handle(ctx, false));
  router.post('/envois/lots/envoyer', kit.allowed('mailings'), (ctx) => handle(ctx, true));
}
