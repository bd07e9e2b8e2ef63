import { settle } from '../../domain/calculations/expenses.js';
import { expenseGroupSchema, settlementSchema, type ExpenseGroup } from '../schemas/expenses.js';
import { defineRoute } from './route.js';
import { respondPaid } from '../respond.js';

export const expenseRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, ExpenseGroup>({
    operationId: 'settleExpenses',
    method: 'POST',
    path: '/v1/expenses/settle',
    tag: 'Calculations',
    summary: 'Settle shared expenses with the minimum number of reimbursements',
    description:
      "Computes each member's balance and the transfers that settle the group with the proven minimum number of reimbursements (up to 22 non-zero balances). " +
      'Shares are rounded to the cent by the largest-remainder rule, so no cent is lost or invented. Billed as one "calculation" after the monthly free quota.',
    scope: 'catalogue:read',
    body: expenseGroupSchema,
    success: { status: 200, description: 'Settlement', schema: settlementSchema },
    errors: [400, 401, 402, 403, 409, 413, 422, 429, 500],
    async handler(ctx, { body }) {
      // Inconsistent groups are refused (422) before anything is billed.
      const settlement = settle(body);
      await respondPaid(ctx, 'calculation', 200, settlement);
    },
  }),
];
