import Joi from 'joi';

const memberId = Joi.string().min(1).max(64).description('Member identifier, as used in expenses');

export const expenseGroupSchema = Joi.object({
  members: Joi.array()
    .items(Joi.object({ id: memberId.required(), name: Joi.string().max(100) }).label('ExpenseMember'))
    .min(2)
    .max(50)
    .required(),
  expenses: Joi.array()
    .items(
      Joi.object({
        label: Joi.string().max(200),
        amountCents: Joi.number().integer().min(1).max(10_000_000_000).required(),
        paidBy: memberId.required(),
        split: Joi.object({
          mode: Joi.string().valid('equal', 'shares', 'amounts').required(),
          members: Joi.array().items(memberId).min(1).max(50).description("mode 'equal': who shares it (default: every member)"),
          shares: Joi.object().pattern(memberId, Joi.number().min(0).max(1_000_000)).description("mode 'shares': weight per member"),
          amounts: Joi.object().pattern(memberId, Joi.number().integer().min(0)).description("mode 'amounts': cents per member, summing to amountCents"),
        })
          .default({ mode: 'equal' })
          .label('ExpenseSplit'),
      }).label('Expense'),
    )
    .min(1)
    .max(1000)
    .required(),
}).label('ExpenseGroup');

export const settlementSchema = Joi.object({
  currency: Joi.string().valid('EUR').required(),
  totalCents: Joi.number().integer().required(),
  balances: Joi.array()
    .items(
      Joi.object({
        member: Joi.string().required(),
        paidCents: Joi.number().integer().required(),
        shareCents: Joi.number().integer().required(),
        balanceCents: Joi.number().integer().required().description('Positive: is owed money; negative: owes money'),
      }),
    )
    .required(),
  transfers: Joi.array()
    .items(Joi.object({ from: Joi.string().required(), to: Joi.string().required(), amountCents: Joi.number().integer().min(1).required() }))
    .required(),
  transferCount: Joi.number().integer().required(),
  method: Joi.string().valid('exact', 'heuristic').required().description('exact: proven minimum number of transfers (up to 22 non-zero balances)'),
}).label('Settlement');

export type { ExpenseGroup } from '../../domain/calculations/expenses.js';
