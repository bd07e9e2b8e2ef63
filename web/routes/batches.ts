import type Router from '@koa/router';
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import { batchRowsFromCsv } from '../../domain/batches/csv.js';
import type { BatchReport } from '../../domain/batches/create.js';
import type { BatchRequest } from '../../domain/batches/request.js';
import { DomainError, NotAllowed } from '../../domain/errors.js';
import { accountCaller, sendBatchOnce } from '../../domain/developers/send-mailing.js';
import type { Caller } from '../../domain/deps.js';
import { batchRequestSchema } from '../../api/schemas/batches.js';
import type { WebKit } from '../kit.js';
import { REFUSALS } from '../refusals.js';
import { BATCH_FORM_FIELDS, batchPage, checkUrl, type BatchForm } from '../pages/batches.js';
import { claimAbandonedBatchCheck, findBatchCheck, recordBatchCheck, runBatchCheck, type BatchCheck } from '../../domain/developers/batch-checks.js';
import { BASE, infoPage } from '../pages/layout.js';

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
 * by its Joi schema and the same domain functions; the dry run first, then the batch. The dry run
 * of a file of thousands of rows takes a while: it runs after the form's answer, as a recorded
 * check (domain/developers/batch-checks.ts) whose page shows its progress, then its report.
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

  /** What a failed check says, in French: the account refused as a key would be, or the outage's message. */
  const failureText = (failure: BatchCheck['failure']): string => {
    if (failure?.code === 'live_not_enabled') return REFUSALS.live_not_enabled;
    if (failure?.code === 'account_suspended') return REFUSALS.account_suspended;
    if (!failure || failure.message === 'internal') return 'La vérification n’a pas pu aboutir. Vérifiez de nouveau le fichier dans un instant.';
    return failure.message;
  };

  /** A recorded check run after the answer (its page follows it). */
  const runInBackground = (check: Pick<BatchCheck, 'id' | 'accountId' | 'mode'>, request: BatchRequest): void => {
    void runBatchCheck(kit.deps, check, request);
  };

  /** Checks (a recorded check, its page next) or creates; a refusal is shown on the form, with the report when there is one. */
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
    if (!create) {
      const check = { accountId: caller.accountId, mode: caller.mode };
      const id = await recordBatchCheck(kit.deps.db, { ...check, form: { ...form }, rowCount: request.rows.length });
      runInBackground({ id, ...check }, request);
      ctx.status = 303;
      return ctx.redirect(checkUrl(id));
    }
    try {
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

  /**
   * A check's page: its progress while it runs (a check whose process stopped is run again from
   * here), then its report and the confirmation, or why it failed. The confirmation's key is the
   * check's id: confirming twice, from a reload of this page, creates one batch.
   */
  router.get('/envois/lots/verifications/:id', kit.allowed('mailings'), async (ctx) => {
    const session = ctx.state.session!;
    const id = ctx.params.id!;
    const check = /^[0-9a-f-]{36}$/.test(id) ? await findBatchCheck(kit.deps.db, session.user!.accountId, id) : undefined;
    if (!check)
      return kit.page(
        ctx,
        404,
        infoPage(
          session,
          'Vérification introuvable',
          { kind: 'error', text: 'Cette vérification n’existe pas ou a plus de 24 heures. Vérifiez de nouveau le fichier.' },
          { href: `${BASE}/envois/lots`, text: 'Envoi en nombre' },
        ),
      );
    const form = { ...EMPTY, ...check.form } as BatchForm;
    if (check.state === 'running' && (await claimAbandonedBatchCheck(kit.deps.db, check.id))) {
      const request = requestOf(form);
      if (typeof request !== 'string') runInBackground(check, request);
      check.checkedCount = 0;
    }
    const view = { id: check.id, state: check.state, rowCount: check.rowCount, checkedCount: check.checkedCount };
    kit.page(
      ctx,
      200,
      batchPage(session, {
        form,
        check: view,
        ...(check.report ? { report: check.report, batchKey: check.id } : {}),
        ...(check.state === 'failed' ? { failure: failureText(check.failure) } : {}),
      }),
    );
  });

  router.get('/envois/lots', kit.allowed('mailings'), async (ctx) => {
    kit.page(ctx, 200, batchPage(ctx.state.session!, { form: EMPTY }));
  });
  router.post('/envois/lots/verifier', kit.allowed('mailings'), (ctx) => handle(ctx, false));
  router.post('/envois/lots/envoyer', kit.allowed('mailings'), (ctx) => handle(ctx, true));
}
