import { describe, expect, it } from 'vitest';
import {
  deadlines,
  electorate,
  frac,
  passes,
  resultsNoticeBy,
  tally,
  type Answer,
  type Ownership,
  type Regime,
  type UnitArea,
} from '../../server/modules/voting/tally.ts';

// The worked example of the voting rules (docs/voting-rules.md §5): A_total = 200.0 m², 4 persons.
const A = 1,
  B = 2,
  C = 3,
  D = 4;
const units: UnitArea[] = [
  { unitId: 1, areaCentiM2: 4550 }, // Apt 1, 45.5 m², A
  { unitId: 2, areaCentiM2: 6400 }, // Apt 2, 64.0 m², B ½ and C ½
  { unitId: 3, areaCentiM2: 3850 }, // Apt 3, 38.5 m², D
  { unitId: 4, areaCentiM2: 5200 }, // non-residential 4, 52.0 m², A
];
const owners: Ownership[] = [
  { personId: A, unitId: 1, share: frac(1) },
  { personId: B, unitId: 2, share: frac(1, 2) },
  { personId: C, unitId: 2, share: frac(1, 2) },
  { personId: D, unitId: 3, share: frac(1) },
  { personId: A, unitId: 4, share: frac(1) },
];
const votes = (entries: [number, Answer][]) => new Map(entries);
const meeting = votes([
  [A, 'for'],
  [B, 'for'],
  [C, 'against'],
]);

describe('the worked example', () => {
  const e = electorate('no_osbb', units, owners);

  it('weighs each person by their area over the total area of all units', () => {
    expect(e.headcount).toBe(false);
    const weights = Object.fromEntries(e.participants.map((p) => [p.personId, Number(p.weight.num) / Number(p.weight.den)]));
    expect(weights).toEqual({ [A]: 0.4875, [B]: 0.16, [C]: 0.16, [D]: 0.1925 });
  });

  it('adopts an ordinary question at 64.75 % "за"', () => {
    const t = tally(e, { kind: 'majority' }, meeting, false);
    expect(t.status).toBe('adopted');
    expect(t.for).toMatchObject({ count: 2, area: 129.5, percent: 64.75 });
    expect(t.against).toMatchObject({ count: 1, area: 32, percent: 16 });
    expect(t.outstanding).toMatchObject({ count: 1, area: 38.5, percent: 19.25 });
  });

  it('keeps a 75 % question open for the poll; D decides it', () => {
    const open = tally(e, { kind: 'qualified' }, meeting, false);
    expect(open.status).toBe('open');
    expect(open.reachable).toBe(true);
    expect(tally(e, { kind: 'qualified' }, votes([...meeting, [D, 'for']]), false)).toMatchObject({ status: 'adopted', for: { percent: 84 } });
    expect(tally(e, { kind: 'qualified' }, votes([...meeting, [D, 'against']]), false).status).toBe('open');
    expect(tally(e, { kind: 'qualified' }, votes([...meeting, [D, 'against']]), false).reachable).toBe(false);
    expect(tally(e, { kind: 'qualified' }, meeting, true).status).toBe('not_adopted');
  });

  it('leaves a 2/3 statute question to D: 64.75 % is short of 66.67 %', () => {
    expect(tally(e, { kind: 'two_thirds' }, meeting, false).status).toBe('open');
    expect(tally(e, { kind: 'statute', percent: 67 }, meeting, false).status).toBe('open');
    expect(tally(e, { kind: 'statute', percent: 60 }, meeting, false).status).toBe('adopted');
  });

  it('switches to heads when A also owns Apt 3 (68 %): 2 "за" of A, B, C adopt', () => {
    const e2 = electorate(
      'no_osbb',
      units,
      owners.map((o) => (o.unitId === 3 ? { ...o, personId: A } : o)),
    );
    expect(e2.headcount).toBe(true);
    expect(e2.participants.map((p) => p.personId)).toEqual([A, B, C]);
    const t = tally(
      e2,
      { kind: 'majority' },
      votes([
        [A, 'for'],
        [B, 'for'],
      ]),
      false,
    );
    expect(t).toMatchObject({ status: 'adopted', headcount: true, for: { count: 2, percent: 66.67 } });
    expect(tally(e2, { kind: 'majority' }, votes([[A, 'for']]), false).status).toBe('open');
  });
});

describe('the dominant owner at exactly 50 %', () => {
  // X holds 100 of 200 m², Y and Z 50 each.
  const u: UnitArea[] = [
    { unitId: 1, areaCentiM2: 10000 },
    { unitId: 2, areaCentiM2: 5000 },
    { unitId: 3, areaCentiM2: 5000 },
  ];
  const o: Ownership[] = [
    { personId: 1, unitId: 1, share: null },
    { personId: 2, unitId: 2, share: null },
    { personId: 3, unitId: 3, share: null },
  ];
  it.each<[Regime, boolean]>([
    ['osbb', false],
    ['no_osbb', true],
  ])('%s: headcount %s', (regime, headcount) => {
    const e = electorate(regime, u, o);
    expect(e.headcount).toBe(headcount);
    // X alone "за": 50 % by area is not more than half; 1 of 3 heads neither.
    expect(tally(e, { kind: 'majority' }, votes([[1, 'for']]), false).status).toBe('open');
    // Y and Z "за": 50 % by area (not adopted under ОСББ), 2 of 3 heads (adopted without ОСББ).
    expect(
      tally(
        e,
        { kind: 'majority' },
        votes([
          [2, 'for'],
          [3, 'for'],
        ]),
        false,
      ).status,
    ).toBe(headcount ? 'adopted' : 'open');
  });
  it('ОСББ switches to heads only above 50 %', () => {
    const more: UnitArea[] = [{ unitId: 1, areaCentiM2: 10001 }, ...u.slice(1)];
    expect(electorate('osbb', more, o).headcount).toBe(true);
  });
});

describe('thresholds and counting', () => {
  it('decides exactly at the boundary: more than 50 %, more than 75 %, at least 2/3', () => {
    expect(passes(frac(1, 2), { kind: 'majority' })).toBe(false);
    expect(passes(frac(5001, 10000), { kind: 'majority' })).toBe(true);
    expect(passes(frac(3, 4), { kind: 'qualified' })).toBe(false);
    expect(passes(frac(7501, 10000), { kind: 'qualified' })).toBe(true);
    expect(passes(frac(2, 3), { kind: 'two_thirds' })).toBe(true);
    expect(passes(frac(6666, 10000), { kind: 'two_thirds' })).toBe(false);
    expect(passes(frac(67, 100), { kind: 'statute', percent: 67 })).toBe(false);
    expect(passes(frac(6701, 10000), { kind: 'statute', percent: 67 })).toBe(true);
  });

  it('rejects once "проти" passes the threshold', () => {
    const e = electorate('no_osbb', units, owners);
    expect(
      tally(
        e,
        { kind: 'majority' },
        votes([
          [C, 'against'],
          [D, 'against'],
        ]),
        false,
      ).status,
    ).toBe('open');
    expect(
      tally(
        e,
        { kind: 'majority' },
        votes([
          [C, 'against'],
          [D, 'against'],
          [B, 'against'],
        ]),
        false,
      ).status,
    ).toBe('rejected');
    expect(
      tally(
        e,
        { kind: 'majority' },
        votes([
          [A, 'against'],
          [D, 'against'],
        ]),
        false,
      ).status,
    ).toBe('rejected');
  });

  it('counts units without an owner in the total area, and joint owners in equal parts', () => {
    const u: UnitArea[] = [
      { unitId: 1, areaCentiM2: 6000 },
      { unitId: 2, areaCentiM2: 4000 },
    ];
    const o: Ownership[] = [
      { personId: 1, unitId: 1, share: null },
      { personId: 2, unitId: 1, share: null },
      { personId: 3, unitId: 1, share: null },
    ];
    const e = electorate('osbb', u, o);
    expect(e.participants.map((p) => p.weight)).toEqual([frac(1, 5), frac(1, 5), frac(1, 5)]);
    const t = tally(
      e,
      { kind: 'majority' },
      votes([
        [1, 'for'],
        [2, 'for'],
        [3, 'for'],
      ]),
      false,
    );
    // 60 % of the area voted "за"; the unowned 40 % is outstanding.
    expect(t).toMatchObject({ status: 'adopted', for: { percent: 60, area: 60 }, outstanding: { count: 0, area: 40, percent: 40 } });
  });

  it('tracks the notice, e-mail request, poll and results deadlines', () => {
    expect(deadlines('2026-12-20')).toEqual({ noticeBy: '2026-12-10', deliveryRequestsBy: '2026-12-05', pollEnds: '2027-02-03' });
    expect(resultsNoticeBy('2027-02-03')).toBe('2027-02-18');
  });
});
