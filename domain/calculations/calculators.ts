import { catalogue } from '../catalogue/catalogue.js';

/**
 * The catalogue's calculators that need no partner, as pure functions of their (checked) inputs.
 * Each cites its source in catalogue/calculators.json and is tested against the worked examples
 * there. Dates are ISO YYYY-MM-DD, amounts integer cents.
 */
export type Inputs = Record<string, string | number>;
export type Output = Record<string, string | number | boolean | null>;

function parts(iso: string): [number, number, number] {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return [y, m, d];
}

const iso = (y: number, m: number, d: number): string => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
/** "600 €", "125 €": whole euros from cents. */
const euros = (cents: number): string => `${cents / 100} €`;
const daysInMonth = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Same day number `months` later; the last day of the month when it does not exist (30 nov. + 3 months = 28 feb.). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return iso(year, month, Math.min(d, daysInMonth(year, month)));
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(date + 'T00:00:00Z') + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whole months from `from` to `to`, and the days left after them. */
export function monthsBetween(from: string, to: string): { months: number; days: number } {
  let months = 0;
  while (addMonths(from, months + 1) <= to) months += 1;
  const days = Math.round((Date.parse(to) - Date.parse(addMonths(from, months))) / 86_400_000);
  return { months, days };
}

/** "12 ans", "5 ans et 6 mois", "7 mois et 14 jours". */
function frenchDuration(years: number, months: number, days: number): string {
  const words = [years ? `${years} an${years > 1 ? 's' : ''}` : '', months ? `${months} mois` : '', days ? `${days} jour${days > 1 ? 's' : ''}` : ''].filter(
    Boolean,
  );
  if (words.length === 0) return '0 jour';
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} et ${words[words.length - 1]}`;
}

export interface KilometricScale {
  incomeYears: number[];
  electricMajoration: number;
  bands: { cv: number; upTo5000: { a: number }; upTo20000: { a: number; b: number }; above20000: { a: number } }[];
}

/** The kilometric scale of the catalogue (calculators.json, indemnites-kilometriques.scale). */
export function kilometricScale(): KilometricScale {
  return catalogue().calculators.get('indemnites-kilometriques')!.scale as unknown as KilometricScale;
}

const NOTICES: Record<string, { months?: number; days?: number }> = {
  'bail-vide-3-mois': { months: 3 },
  'bail-1-mois': { months: 1 },
  'assurance-1-mois': { months: 1 },
  'telecom-10-jours': { days: 10 },
  'energie-30-jours': { days: 30 },
};

export const calculators: Record<string, (inputs: Inputs) => Output> = {
  /** Notice period end date (loi n° 89-462 art. 15; Code de la consommation; Code des assurances). */
  'date-fin-preavis'(inputs) {
    const notice =
      inputs.noticeType === 'personnalise'
        ? { months: Number(inputs.customMonths ?? 0), days: Number(inputs.customDays ?? 0) }
        : NOTICES[String(inputs.noticeType)]!;
    return { endDate: addDays(addMonths(String(inputs.receiptDate), notice.months ?? 0), notice.days ?? 0) };
  },

  /**
   * Legal severance pay (Code du travail L1234-9, R1234-1, R1234-2, R1234-4). The right (8 months of
   * uninterrupted seniority) is assessed when the dismissal letter is sent (notificationDate); the
   * amount counts seniority up to the end of the notice: 1/4 month per year up to 10, 1/3 beyond.
   */
  'indemnite-licenciement'(inputs) {
    const atNotification = monthsBetween(String(inputs.hireDate), String(inputs.notificationDate));
    const { months, days } = monthsBetween(String(inputs.hireDate), String(inputs.noticeEndDate));
    const reference = Math.max(Number(inputs.averageSalary12MonthsCents), Number(inputs.averageSalary3MonthsCents ?? 0));
    const head = {
      seniority: frenchDuration(Math.floor(months / 12), months % 12, days),
      seniorityMonths: months,
      seniorityAtNotification: frenchDuration(Math.floor(atNotification.months / 12), atNotification.months % 12, atNotification.days),
      seniorityMonthsAtNotification: atNotification.months,
    };
    if (atNotification.months < 8) return { ...head, eligible: false, referenceSalaryCents: reference, indemnityCents: 0 };
    const years = months / 12; // incomplete years count in whole months (R1234-1)
    const indemnity = reference * (Math.min(years, 10) / 4 + Math.max(years - 10, 0) / 3);
    return { ...head, eligible: true, referenceSalaryCents: reference, indemnityCents: Math.round(indemnity) };
  },

  /**
   * Kilometric allowance from the official scale (CGI annexe IV art. 6 B), +20 % for electric
   * vehicles. The scale says which income years it covers (`incomeYears`); the scale of income year
   * N is published and used in year N+1 (`scaleYear`).
   */
  'indemnites-kilometriques'(inputs) {
    const scale = kilometricScale();
    const incomeYear = Number(inputs.incomeYear ?? Math.max(...scale.incomeYears));
    const band = scale.bands.find((b) => b.cv === Number(inputs.fiscalHorsepower))!;
    const d = Number(inputs.distanceKm);
    let amount = d <= 5000 ? d * band.upTo5000.a : d <= 20000 ? d * band.upTo20000.a + band.upTo20000.b : d * band.above20000.a;
    if (inputs.electricVehicle === 'oui') amount *= 1 + scale.electricMajoration;
    return { amountCents: Math.round(amount * 100), incomeYear, scaleYear: incomeYear + 1 };
  },

  /**
   * Late return of a security deposit (loi n° 89-462 art. 22). Leases signed since 27 March 2014
   * (loi ALUR): 10 % of the monthly rent per started month late. Older leases keep the former
   * article 22: legal interest on the balance, computed when the rate is given. In a shared building
   * the landlord may keep a justified provision (at most 20 %, checked before) until the accounts.
   */
  'depot-garantie-restitution'(inputs) {
    const dueDate = addMonths(String(inputs.keysReturnDate), inputs.exitInventory === 'non-conforme' ? 2 : 1);
    const refundDate = String(inputs.refundDate);
    const provision = Number(inputs.sharedBuildingProvisionCents ?? 0);
    const balance = Number(inputs.depositAmountCents) - Number(inputs.deductionsCents ?? 0) - provision;
    const lateDays = Math.max(0, Math.round((Date.parse(refundDate) - Date.parse(dueDate)) / 86_400_000));
    if (inputs.leaseDate === 'avant-2014-03-27') {
      const rate = inputs.legalInterestRatePercent === undefined ? null : Number(inputs.legalInterestRatePercent);
      const interest = rate === null ? null : Math.round((Math.max(balance, 0) * rate * lateDays) / 100 / 365);
      return {
        dueDate,
        regime: 'interet-legal',
        startedLateMonths: 0,
        penaltyCents: 0,
        lateDays,
        legalInterestCents: interest,
        provisionHeldCents: provision,
        totalDueCents: balance + (interest ?? 0),
      };
    }
    let started = 0;
    while (refundDate > addMonths(dueDate, started)) started += 1;
    const penalty = Math.round(Number(inputs.monthlyRentCents) * 0.1) * started;
    return {
      dueDate,
      regime: 'majoration-10-pourcent',
      startedLateMonths: started,
      penaltyCents: penalty,
      lateDays,
      legalInterestCents: null,
      provisionHeldCents: provision,
      totalDueCents: balance + penalty,
    };
  },

  /**
   * Paid leave earned (Code du travail L3141-3, L3141-5-1, L3141-7): 2.5 days a month worked, 2 a month of
   * sick leave, rounded up. The two together cannot exceed the 12-month reference period (refused before, 422).
   */
  'conges-payes-acquis'(inputs) {
    const raw = 2.5 * Number(inputs.monthsWorked) + 2 * Number(inputs.sickLeaveMonths ?? 0);
    return { rawDays: raw, days: Math.min(30, Math.ceil(raw)), unit: 'jours ouvrables' };
  },

  /** The EU minimum for a train delay (règlement (UE) 2021/782 art. 19): 25 % from 60 min, 50 % from 120 min (SNCF's G30 can pay more). */
  'indemnite-retard-train'(inputs) {
    const delay = Number(inputs.arrivalDelayMinutes);
    const rate = delay >= 120 ? 0.5 : delay >= 60 ? 0.25 : 0;
    const compensation = Math.round(Number(inputs.ticketPriceCents) * rate);
    // The carrier may withhold compensation under 4 € (art. 19 §8).
    return { basis: 'minimum-ue', rate, compensationCents: compensation, belowMinimumThreshold: compensation > 0 && compensation < 400 };
  },

  /**
   * Flight compensation (règlement (CE) n° 261/2004 art. 4, 5 and 7; CJUE Sturgeon, C-402/07, points 61
   * and 63; Nelson, C-581/10). Art. 7 §1 bands: 1 500 km or less → 250 €; intra-EU over 1 500 km, or
   * others up to 3 500 km → 400 €; beyond → 600 €. `compensationCents` is what the passenger may
   * claim, always the full amount: the 50 % reduction of art. 7 §2 is the carrier's option ("may
   * reduce"), given apart (`reductionPossible`, `reducedCompensationCents`), never as the sum due.
   * - Delay (`incident` retard, the default of earlier requests): due from 3 h 00 at final arrival
   *   (Sturgeon 61). The only reduction is 7 §2 c) applied to delays (Sturgeon 63): band c only,
   *   delay under 4 h (strict: 4 h 00 is 600 €); none in bands a and b, so no 200 € for a delay.
   * - Cancellation, denied boarding: no 3-hour minimum. A cancellation gives nothing when notified two
   *   weeks ahead, or when the re-routing offered fits art. 5 §1 c) ii) or iii) (strict "less than"
   *   bounds). With a re-routing offered, 7 §2 lets the carrier halve when it arrives no more than
   *   2, 3 or 4 h after the scheduled arrival (band a, b, c; bounds included).
   * Extraordinary circumstances (art. 5 §3) are the carrier's to prove: the answer can only say so.
   */
  'indemnite-retard-avion'(inputs) {
    const distance = Number(inputs.distanceKm);
    const band = distance <= 1500 ? 'a' : inputs.intraEu === 'oui' || distance <= 3500 ? 'b' : 'c';
    const full = { a: 25000, b: 40000, c: 60000 }[band];
    const incident = String(inputs.incident ?? 'retard');
    const none = (exclusion: string, explanation: string): Output => ({
      band,
      compensationCents: 0,
      reduced: false,
      reductionPossible: false,
      reducedCompensationCents: null,
      reductionBasis: null,
      exclusion,
      explanation,
    });
    /** The full amount, due for `why` (`cited`); the carrier may halve it when `reduction` says on what basis. */
    const due = (why: string, cited: string, reduction: { basis: string; because: string } | { refused: string }, proviso: string): Output => ({
      band,
      compensationCents: full,
      // Kept for earlier clients: compensationCents is never the reduced amount now.
      reduced: false,
      reductionPossible: 'basis' in reduction,
      reducedCompensationCents: 'basis' in reduction ? full / 2 : null,
      reductionBasis: 'basis' in reduction ? reduction.basis : null,
      exclusion: null,
      explanation: [
        `Indemnité de ${euros(full)} due ${why} (${cited} ; article 7, paragraphe 1, ${band}), du règlement (CE) n° 261/2004).`,
        'basis' in reduction
          ? `Le transporteur peut la réduire de moitié, à ${euros(full / 2)}, ${reduction.because} (${reduction.basis}) : c'est une faculté qu'il lui appartient d'invoquer, l'indemnité à réclamer est de ${euros(full)}.`
          : `Le transporteur ne peut pas la réduire : ${reduction.refused}.`,
        proviso,
      ]
        .filter(Boolean)
        .join(' '),
    });

    if (incident === 'retard') {
      const delay = Number(inputs.arrivalDelayMinutes);
      if (delay < 180)
        return none(
          'retard-inferieur-a-trois-heures',
          "Retard inférieur à trois heures à l'arrivée à destination finale : aucune indemnité n'est due (arrêt Sturgeon, point 61).",
        );
      const why = "pour un retard d'au moins trois heures à l'arrivée à destination finale";
      const cited = 'arrêt Sturgeon, point 61';
      const proviso =
        "Aucune indemnité n'est due si le transporteur prouve que le retard est dû à des circonstances extraordinaires qui n'auraient pas pu être évitées même si toutes les mesures raisonnables avaient été prises (article 5, paragraphe 3, tel qu'appliqué aux retards par l'arrêt Sturgeon).";
      if (band !== 'c')
        return due(
          why,
          cited,
          {
            refused:
              "pour un retard, seul l'article 7, paragraphe 2, c), s'applique, aux vols de plus de 3 500 km autres qu'intracommunautaires arrivés avec un retard inférieur à quatre heures (arrêt Sturgeon, point 63)",
          },
          proviso,
        );
      if (delay < 240)
        return due(
          why,
          cited,
          {
            basis: "article 7, paragraphe 2, c), appliqué aux retards par l'arrêt Sturgeon, point 63",
            because: "le retard d'un vol de plus de 3 500 km autre qu'intracommunautaire étant inférieur à quatre heures",
          },
          proviso,
        );
      return due(why, cited, { refused: "le retard n'est pas inférieur à quatre heures (article 7, paragraphe 2, c), et arrêt Sturgeon, point 63)" }, proviso);
    }

    const offered = inputs.reroutingOffered === 'oui';
    const arrival = Number(inputs.reroutingArrivalDelayMinutes);
    let why = "pour un refus d'embarquement contre la volonté du passager";
    let cited = 'article 4, paragraphe 3';
    let proviso = '';
    if (incident === 'annulation') {
      const notice = String(inputs.cancellationNotice);
      if (notice === '2-semaines-ou-plus')
        return none(
          'annulation-notifiee-au-moins-deux-semaines-avant',
          "Annulation notifiée au moins deux semaines avant l'heure de départ prévue : aucune indemnité n'est due (article 5, paragraphe 1, c), i)).",
        );
      // Given whenever it can decide (checked before, in crossChecks).
      const early = Number(inputs.reroutingDepartureAdvanceMinutes ?? 0);
      if (offered && notice === '7-jours-a-2-semaines' && early <= 120 && arrival < 240)
        return none(
          'reacheminement-article-5-1-c-ii',
          "Annulation notifiée entre deux semaines et sept jours avant le départ, avec un réacheminement proposé partant au plus deux heures avant l'heure de départ prévue et arrivant moins de quatre heures après l'heure d'arrivée prévue : aucune indemnité n'est due (article 5, paragraphe 1, c), ii)).",
        );
      if (offered && notice === 'moins-de-7-jours' && early <= 60 && arrival < 120)
        return none(
          'reacheminement-article-5-1-c-iii',
          "Annulation notifiée moins de sept jours avant le départ, avec un réacheminement proposé partant au plus une heure avant l'heure de départ prévue et arrivant moins de deux heures après l'heure d'arrivée prévue : aucune indemnité n'est due (article 5, paragraphe 1, c), iii)).",
        );
      why = "pour une annulation dont le passager n'a pas été informé dans les conditions qui excluent l'indemnisation";
      cited = 'article 5, paragraphe 1, c)';
      proviso =
        "Aucune indemnité n'est due si le transporteur prouve que l'annulation est due à des circonstances extraordinaires qui n'auraient pas pu être évitées même si toutes les mesures raisonnables avaient été prises (article 5, paragraphe 3).";
    }
    const limit = { a: 120, b: 180, c: 240 }[band];
    const hours = { a: 'deux', b: 'trois', c: 'quatre' }[band];
    if (!offered) return due(why, cited, { refused: "aucun réacheminement n'a été proposé (article 7, paragraphe 2)" }, proviso);
    if (arrival <= limit)
      return due(
        why,
        cited,
        {
          basis: `article 7, paragraphe 2, ${band})`,
          because: `le réacheminement proposé arrivant au plus ${hours} heures après l'heure d'arrivée prévue du vol initialement réservé`,
        },
        proviso,
      );
    return due(
      why,
      cited,
      {
        refused: `le réacheminement proposé arrive plus de ${hours} heures après l'heure d'arrivée prévue du vol initialement réservé (article 7, paragraphe 2, ${band}))`,
      },
      proviso,
    );
  },
};

/** A rule between inputs that their fields alone cannot say, broken (a 422 before anything is billed). */
export interface InputProblem {
  field: string;
  message: string;
}

/** Each calculator's rules between its inputs, checked before its formula runs. */
export const inputProblems: Record<string, (inputs: Inputs) => InputProblem[]> = {
  'indemnite-licenciement'(inputs) {
    const problems: InputProblem[] = [];
    if (String(inputs.notificationDate) < String(inputs.hireDate)) problems.push({ field: 'notificationDate', message: 'must be on or after hireDate' });
    if (String(inputs.noticeEndDate) < String(inputs.notificationDate))
      problems.push({ field: 'noticeEndDate', message: 'must be on or after notificationDate' });
    return problems;
  },
  'indemnites-kilometriques'(inputs) {
    const problems: InputProblem[] = [];
    const years = kilometricScale().incomeYears;
    if (!years.includes(Number(inputs.incomeYear)))
      problems.push({ field: 'incomeYear', message: `no scale for this income year (known: ${years.join(', ')})` });
    return problems;
  },
  'conges-payes-acquis'(inputs) {
    const problems: InputProblem[] = [];
    // One reference period is 12 months: more would let sick leave earn past the 24-day cap of L3141-5-1.
    const worked = Number(inputs.monthsWorked);
    const sick = Number(inputs.sickLeaveMonths);
    if (worked < 0) problems.push({ field: 'monthsWorked', message: 'must not be negative' });
    if (sick < 0) problems.push({ field: 'sickLeaveMonths', message: 'must not be negative' });
    if (worked + sick > 12)
      problems.push({ field: 'sickLeaveMonths', message: 'monthsWorked + sickLeaveMonths must not exceed the 12 months of the reference period' });
    return problems;
  },
  'indemnite-retard-avion'(inputs) {
    const problems: InputProblem[] = [];
    if (Number(inputs.reroutingDepartureAdvanceMinutes) < 0)
      problems.push({
        field: 'reroutingDepartureAdvanceMinutes',
        message: 'must not be negative (0 when the re-routing left at or after the scheduled departure)',
      });
    // Article 5(1)(c)(ii) and (iii): a cancellation notified less than two weeks ahead gives no
    // compensation when the re-routing offered left early enough and arrived soon enough; only how
    // early it left can then decide.
    const arrival = Number(inputs.reroutingArrivalDelayMinutes);
    const decisive =
      inputs.incident === 'annulation' &&
      inputs.reroutingOffered === 'oui' &&
      ((inputs.cancellationNotice === '7-jours-a-2-semaines' && arrival < 240) || (inputs.cancellationNotice === 'moins-de-7-jours' && arrival < 120));
    if (decisive && inputs.reroutingDepartureAdvanceMinutes === undefined)
      problems.push({
        field: 'reroutingDepartureAdvanceMinutes',
        message:
          'is required here: the re-routing arrived soon enough for article 5(1)(c) of Regulation 261/2004 to exclude compensation if it left no earlier than it allows',
      });
    return problems;
  },
  'depot-garantie-restitution'(inputs) {
    const problems: InputProblem[] = [];
    const max = Math.floor(Number(inputs.depositAmountCents) * 0.2);
    if (Number(inputs.sharedBuildingProvisionCents) > max) {
      problems.push({ field: 'sharedBuildingProvisionCents', message: `must be at most 20 % of the deposit (${max} cents)` });
    }
    return problems;
  },
};
