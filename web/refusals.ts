/**
 * The domain's refusals of a send by their SPEC.md code (domain/access/standing.ts), as the
 * developer space's pages say them in French: one text for each, whichever page refuses.
 */
export const REFUSALS = {
  account_suspended: 'Ce compte est suspendu : aucun envoi n’est possible. Contactez le support.',
  sender_identity_unverified:
    'Une lettre recommandée électronique part au nom d’un expéditeur dont l’identité est vérifiée : demandez la vérification (page « Identité d’expéditeur »), ou envoyez en test, ou par courrier.',
  live_not_enabled: 'La production n’est pas encore ouverte pour ce compte : envoyez en test, ou demandez l’accès (page « Production »).',
} as const;
