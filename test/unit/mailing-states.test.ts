import { expect } from 'chai';
import {
  advanceRefusal,
  isAhead,
  isFinal,
  movesTo,
  lastStep,
  MODE_LABELS,
  MODES,
  PATHS,
  PROOF_KINDS,
  PROOF_LABELS,
  proofAt,
  STATUS_LABELS,
  STATUSES,
  type Mode,
  type ProofKind,
  type MailingStatus,
} from '../../domain/mailings/states.js';

const TERMINAL: MailingStatus[] = ['returned', 'error', 'canceled'];

/** The proofs a mailing gets when it walks its whole main path, in order. */
function proofsAlongPath(mode: Mode): ProofKind[] {
  return PATHS[mode].map((status) => proofAt(mode, status)).filter((p): p is ProofKind => p !== undefined);
}

describe('mailing states (domain/mailings/states)', () => {
  describe('PATHS', () => {
    it('a simple letter is paid, printed, then posted', () => {
      expect(PATHS.simple).to.deep.equal(['paid', 'printed', 'posted']);
    });

    it('a registered letter goes on through transit to delivery', () => {
      expect(PATHS.registered).to.deep.equal(['paid', 'printed', 'posted', 'in_transit', 'delivered']);
    });

    it('a letter with AR ends with the signed acknowledgement of receipt', () => {
      expect(PATHS.ar).to.deep.equal(['paid', 'printed', 'posted', 'in_transit', 'delivered', 'ar_signed']);
    });

    it('each path extends the previous mode, and no terminal status is on a main path', () => {
      expect(PATHS.registered.slice(0, PATHS.simple.length)).to.deep.equal(PATHS.simple);
      expect(PATHS.ar.slice(0, PATHS.registered.length)).to.deep.equal(PATHS.registered);
      for (const mode of MODES) for (const status of TERMINAL) expect(PATHS[mode]).not.to.include(status);
    });

    it('every mode has a path and every path status is a known status', () => {
      expect(Object.keys(PATHS).sort()).to.deep.equal([...MODES].sort());
      for (const mode of MODES) for (const status of PATHS[mode]) expect(STATUSES).to.include(status);
    });
  });

  describe('lastStep', () => {
    it('is the index of the last status of the main path: 2, 4 and 5', () => {
      expect(lastStep('simple')).to.equal(2);
      expect(lastStep('registered')).to.equal(4);
      expect(lastStep('ar')).to.equal(5);
      for (const mode of MODES) expect(PATHS[mode][lastStep(mode)]).to.equal(PATHS[mode].at(-1));
    });
  });

  describe('isFinal', () => {
    it('the end of the main path is final: posted (simple), delivered (registered), ar_signed (ar)', () => {
      expect(isFinal('simple', 'posted')).to.equal(true);
      expect(isFinal('registered', 'delivered')).to.equal(true);
      expect(isFinal('ar', 'ar_signed')).to.equal(true);
    });

    it('every earlier step of the main path is not final', () => {
      for (const mode of MODES) {
        for (const status of PATHS[mode].slice(0, -1)) expect(isFinal(mode, status), `${mode} ${status}`).to.equal(false);
      }
    });

    it('posted is final only for a simple letter, delivered only for a registered one', () => {
      expect(isFinal('registered', 'posted')).to.equal(false);
      expect(isFinal('ar', 'posted')).to.equal(false);
      expect(isFinal('ar', 'delivered')).to.equal(false);
    });

    it('returned, error and canceled are final in every mode', () => {
      for (const mode of MODES) for (const status of TERMINAL) expect(isFinal(mode, status), `${mode} ${status}`).to.equal(true);
    });

    it('a status off the mode path is not taken for its end', () => {
      expect(isFinal('simple', 'delivered')).to.equal(false);
      expect(isFinal('registered', 'ar_signed')).to.equal(false);
    });
  });

  describe('proofAt', () => {
    it('posting gives the filing proof, in every mode', () => {
      for (const mode of MODES) expect(proofAt(mode, 'posted')).to.equal('filing');
    });

    it('a registered letter gets its delivery proof once delivered', () => {
      expect(proofAt('registered', 'delivered')).to.equal('delivery');
    });

    it('an AR letter gets its delivery proof once the AR is signed, not at delivery', () => {
      expect(proofAt('ar', 'ar_signed')).to.equal('delivery');
      expect(proofAt('ar', 'delivered')).to.equal(undefined);
    });

    it('a simple letter never gets a delivery proof', () => {
      expect(proofAt('simple', 'delivered')).to.equal(undefined);
      expect(proofAt('simple', 'ar_signed')).to.equal(undefined);
    });

    it('a returned letter gets the return proof, in every mode', () => {
      for (const mode of MODES) expect(proofAt(mode, 'returned')).to.equal('return');
    });

    it('paid, printed, in_transit, error and canceled give no proof', () => {
      for (const mode of MODES) {
        for (const status of ['paid', 'printed', 'in_transit', 'error', 'canceled'] as MailingStatus[]) {
          expect(proofAt(mode, status), `${mode} ${status}`).to.equal(undefined);
        }
      }
    });

    it('walking the main path yields filing only (simple) or filing then delivery (registered, ar)', () => {
      expect(proofsAlongPath('simple')).to.deep.equal(['filing']);
      expect(proofsAlongPath('registered')).to.deep.equal(['filing', 'delivery']);
      expect(proofsAlongPath('ar')).to.deep.equal(['filing', 'delivery']);
    });
  });

  describe('labels', () => {
    it('every mode, status and proof kind has a non-empty French label, and no label is left over', () => {
      const check = (labels: Record<string, string>, keys: string[]): void => {
        expect(Object.keys(labels).sort()).to.deep.equal([...keys].sort());
        for (const key of keys) expect(labels[key], key).to.be.a('string').and.match(/\S/);
      };
      check(MODE_LABELS, MODES);
      check(STATUS_LABELS, STATUSES);
      check(PROOF_LABELS, PROOF_KINDS);
    });

    it('labels are distinct within each kind', () => {
      for (const labels of [MODE_LABELS, STATUS_LABELS, PROOF_LABELS]) {
        const values = Object.values(labels);
        expect(new Set(values).size).to.equal(values.length);
      }
    });
  });
});

describe('advanceRefusal (what a test mailing may be asked to do)', () => {
  const paid = { mode: 'ar' as const, status: 'paid' as const, step: 0, test: true };
  it('allows the next step, a later step, and an error from any state that is not final', () => {
    expect(advanceRefusal(paid, {})).to.equal(undefined);
    expect(advanceRefusal(paid, { step: 5 })).to.equal(undefined);
    expect(advanceRefusal(paid, { status: 'error' })).to.equal(undefined);
  });
  it('allows "returned" only once the letter is posted', () => {
    expect(advanceRefusal(paid, { status: 'returned' })?.kind).to.equal('conflict');
    expect(advanceRefusal({ ...paid, status: 'printed', step: 1 }, { status: 'returned' })?.kind).to.equal('conflict');
    expect(advanceRefusal({ ...paid, status: 'posted', step: 2 }, { status: 'returned' })).to.equal(undefined);
  });
  it('refuses steps beyond the path (invalid) or not ahead (conflict), final states and live mailings (conflict)', () => {
    expect(advanceRefusal(paid, { step: 6 })?.kind).to.equal('invalid');
    expect(advanceRefusal({ ...paid, status: 'posted', step: 2 }, { step: 2 })?.kind).to.equal('conflict');
    expect(advanceRefusal({ ...paid, status: 'ar_signed', step: 5 }, {})?.kind).to.equal('conflict');
    expect(advanceRefusal({ ...paid, status: 'canceled', step: 5 }, { status: 'error' })?.kind).to.equal('conflict');
    expect(advanceRefusal({ ...paid, test: false }, {})?.kind).to.equal('conflict');
  });
});

describe('news from the postal operator', () => {
  it('moves through every step up to the reported one, so that each event goes out', () => {
    expect(movesTo('ar', 'printed', 'delivered')).to.deep.equal([
      ['posted', 2],
      ['in_transit', 3],
      ['delivered', 4],
    ]);
    expect(movesTo('simple', 'printed', 'posted')).to.deep.equal([['posted', 2]]);
  });

  it('ends off the path at the last step', () => {
    expect(movesTo('registered', 'in_transit', 'returned')).to.deep.equal([['returned', 4]]);
    // A return reported before the letter was known to be posted: posted first (and its proof).
    expect(movesTo('ar', 'printed', 'returned')).to.deep.equal([
      ['posted', 2],
      ['returned', 5],
    ]);
    expect(movesTo('simple', 'printed', 'returned')).to.deep.equal([['returned', 2]]);
    expect(movesTo('ar', 'printed', 'error')).to.deep.equal([['error', 5]]);
  });

  it('is no news when the operator is not ahead, or the mailing is final', () => {
    expect(isAhead('ar', 'printed', 'printed')).to.equal(false);
    expect(isAhead('ar', 'posted', 'in_transit')).to.equal(false);
    expect(isAhead('simple', 'error', 'posted')).to.equal(false);
    expect(movesTo('ar', 'in_transit', 'posted')).to.deep.equal([]);
    expect(isAhead('ar', 'posted', 'printed')).to.equal(true);
  });
});
