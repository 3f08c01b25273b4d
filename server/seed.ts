import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { DEMO_ADMIN, DEMO_STAFF, PUBLISHED_PASSWORDS, type AppConfig } from './config.ts';
import { hashPassword, verifyPassword } from './lib/secrets.ts';
import { ensureStreet } from './modules/reference/streets.ts';
import type { Db } from './db/index.ts';
import { randomBytes } from 'node:crypto';
import { residentRolesOf } from './modules/members/roles.ts';
import { snapshotElectorate } from './modules/voting/meeting.ts';
import { linkKeyOf, newLinkToken } from './modules/voting/linkTokens.ts';
import type { SealKey } from './lib/sealed.ts';
import { votingAnswers, votingBallots, votingParticipants, votingQuestions, votings } from './db/schema.ts';
import { REQUEST_STAGES } from '../contract/serviceRequests.ts';
import { formatAddress } from './modules/houses/address.ts';
import { selectHouses } from './modules/houses/records.ts';
import { searchText as requestSearchText } from './modules/serviceRequests/records.ts';
import { interviewAnswers, interviewComplexes, interviewOptions, interviewQuestions, interviewResponses, interviews } from './db/schema.ts';
import {
  advertisements,
  announcementComplexes,
  announcements,
  articleComplexes,
  articles,
  bills,
  cameras,
  contactGroups,
  contacts,
  contactSections,
  discountComplexes,
  discounts,
  complexes,
  eventComplexes,
  events,
  houses,
  houseTypes,
  members,
  organizations,
  realty,
  residents,
  notifications,
  serviceRequestComments,
  serviceRequestCounters,
  serviceRequestHistory,
  serviceRequests,
  serviceRequestTypeRoles,
  serviceRequestTypes,
  serviceRequestTypeStaff,
  settlements,
  staffDepartures,
  staffRoles,
  userComplexes,
  users,
  vehicles,
} from './db/schema.ts';

type Tx = Pick<Db, 'select' | 'insert' | 'update'>;

export const DEMO_HOUSE_TYPES = ['Багатоквартирний', 'Таунхаус', 'Котедж'] as const;
type DemoHouseType = (typeof DEMO_HOUSE_TYPES)[number];

interface DemoHouse {
  number: string;
  building?: string;
  type: DemoHouseType;
  floors: number;
  entrances: number;
  /** Apartments per floor per entrance; commercial premises take the ground floor. */
  perFloor: number;
  commercial?: number;
  parking?: number;
  storage?: number;
}

/**
 * Houses of each demo complex, on the street of its address. The settlement is looked up by
 * name and KATOTTG category (the reference import runs before seeding); the street is taken
 * from the reference or added.
 */
const DEMO_HOUSES: Record<string, { settlement: [name: string, category: string]; street: string; streetType: string; houses: DemoHouse[] }> = {
  'ЖК «Липовий гай»': {
    settlement: ['Київ', 'К'],
    street: 'Липова',
    streetType: 'вулиця',
    houses: [
      { number: '12', building: 'секція 1', type: 'Багатоквартирний', floors: 16, entrances: 1, perFloor: 4, parking: 40, storage: 12 },
      { number: '12', building: 'секція 2', type: 'Багатоквартирний', floors: 16, entrances: 1, perFloor: 4 },
      { number: '12', building: 'секція 3', type: 'Багатоквартирний', floors: 16, entrances: 1, perFloor: 4 },
    ],
  },
  'ЖК «Сонячна гавань»': {
    settlement: ['Львів', 'М'],
    street: 'Стрийська',
    streetType: 'вулиця',
    houses: [
      { number: '45', type: 'Багатоквартирний', floors: 9, entrances: 2, perFloor: 3, commercial: 4, storage: 8 },
      { number: '45', building: 'А', type: 'Багатоквартирний', floors: 9, entrances: 2, perFloor: 3, commercial: 3 },
    ],
  },
  'ЖК «Приморський»': {
    settlement: ['Одеса', 'М'],
    street: 'Французький',
    streetType: 'бульвар',
    houses: [{ number: '60', type: 'Багатоквартирний', floors: 12, entrances: 2, perFloor: 4, storage: 10 }],
  },
  'ЖК «Слобожанський»': {
    settlement: ['Харків', 'М'],
    street: 'Науки',
    streetType: 'проспект',
    houses: [
      { number: '14', type: 'Багатоквартирний', floors: 10, entrances: 3, perFloor: 4, parking: 20 },
      { number: '14', building: 'Б', type: 'Таунхаус', floors: 3, entrances: 4, perFloor: 1 },
    ],
  },
  'ЖК «Дніпровські вогні»': {
    settlement: ['Дніпро', 'М'],
    street: 'Перемоги',
    streetType: 'набережна',
    houses: [{ number: '32', type: 'Багатоквартирний', floors: 25, entrances: 2, perFloor: 4, parking: 60, storage: 40 }],
  },
};

const AREAS = [38.5, 52.75, 64.2, 81.4, 47.1, 95.6];

function demoUnits(h: DemoHouse) {
  const units: { type: 'apartment' | 'parking' | 'storage' | 'commercial'; number: string; area: string; floor: number | null; entrance: number | null }[] = [];
  const firstResidential = h.commercial ? 2 : 1;
  let n = 0;
  for (let entrance = 1; entrance <= h.entrances; entrance++) {
    for (let floor = firstResidential; floor <= h.floors; floor++) {
      for (let k = 0; k < h.perFloor; k++) {
        n += 1;
        units.push({ type: 'apartment', number: String(n), area: AREAS[n % AREAS.length].toFixed(2), floor, entrance });
      }
    }
  }
  for (let i = 1; i <= (h.commercial ?? 0); i++)
    units.push({ type: 'commercial', number: String(i), area: (60 + i * 12.5).toFixed(2), floor: 1, entrance: null });
  for (let i = 1; i <= (h.parking ?? 0); i++) units.push({ type: 'parking', number: String(i), area: '13.25', floor: -1, entrance: null });
  for (let i = 1; i <= (h.storage ?? 0); i++)
    units.push({ type: 'storage', number: String(i), area: (3 + (i % 4) * 0.75).toFixed(2), floor: -1, entrance: null });
  return units;
}

/**
 * Demo house types, houses and their units for the demo complexes (by name). Houses need the
 * address reference: a complex whose settlement is not there (empty reference) gets none.
 * Returns how many houses were created.
 */
export async function seedDemoHouses(tx: Tx, organizationId: number, demoComplexes: { id: number; name: string }[]): Promise<number> {
  const types = await tx
    .insert(houseTypes)
    .values(DEMO_HOUSE_TYPES.map((name) => ({ organizationId, name })))
    .returning({ id: houseTypes.id, name: houseTypes.name });
  const typeId = new Map(types.map((t) => [t.name, t.id]));
  let created = 0;
  for (const complex of demoComplexes) {
    const plan = DEMO_HOUSES[complex.name];
    if (!plan) continue;
    const [settlement] = await tx
      .select({ id: settlements.id })
      .from(settlements)
      .where(and(eq(settlements.name, plan.settlement[0]), eq(settlements.category, plan.settlement[1])))
      .orderBy(asc(settlements.id))
      .limit(1);
    if (!settlement) continue;
    const streetId = await ensureStreet(tx, organizationId, settlement.id, plan.street, plan.streetType);
    for (const h of plan.houses) {
      const [house] = await tx
        .insert(houses)
        .values({
          organizationId,
          complexId: complex.id,
          settlementId: settlement.id,
          streetId,
          number: h.number,
          building: h.building ?? '',
          houseTypeId: typeId.get(h.type)!,
          floors: h.floors,
          entrances: h.entrances,
        })
        .returning({ id: houses.id });
      await tx.insert(realty).values(demoUnits(h).map((u) => ({ ...u, organizationId, houseId: house.id })));
      created += 1;
    }
  }
  return created;
}

export { DEMO_STAFF };

const DEMO_COMPLEXES = [
  { name: 'ЖК «Липовий гай»', city: 'Київ', address: 'вул. Липова, 12', description: 'Три секції, підземний паркінг, закрита територія.' },
  { name: 'ЖК «Сонячна гавань»', city: 'Львів', address: 'вул. Стрийська, 45', description: 'Два будинки з комерційними приміщеннями на першому поверсі.' },
  { name: 'ЖК «Приморський»', city: 'Одеса', address: 'Французький бульвар, 60', description: 'Будинок ОСББ, власна котельня.' },
  { name: 'ЖК «Слобожанський»', city: 'Харків', address: 'просп. Науки, 14', description: 'Укриття в підвалі, генератор на ліфти.' },
  { name: 'ЖК «Дніпровські вогні»', city: 'Дніпро', address: 'Набережна Перемоги, 32', description: 'Висотний комплекс, комори та паркінг.' },
];

/** What the seed reads of the configuration (the link key seals the demo meeting's link). */
export type SeedConfig = Pick<AppConfig, 'adminEmail' | 'adminPassword' | 'seedDemo' | 'passwordHashCost' | 'linkSecret' | 'dataDir'>;

/** Fills an empty database with a realistic demo organization; does nothing when users exist. */
export async function seedIfEmpty(db: Db, config: SeedConfig) {
  const [{ n }] = await db.select({ n: count() }).from(users);
  if (n > 0) return false;
  const adminHash = await hashPassword(config.adminPassword, config.passwordHashCost);
  await db.transaction(async (tx) => {
    const [org] = await tx.insert(organizations).values({ name: 'Керуюча компанія «Затишний дім»' }).returning();
    const [adminUser] = await tx
      .insert(users)
      .values({
        organizationId: org.id,
        name: 'Адміністратор',
        email: config.adminEmail,
        passwordHash: adminHash,
        isAdmin: true,
        // The demo's first steps are all done (complexes, houses, residents, roles, staff, request
        // types, news), so its admin starts at the dashboard; a clean install (SEED_DEMO=0) starts
        // at «З чого почати?».
        tutorialCompleted: config.seedDemo,
      })
      .returning({ id: users.id });
    if (!config.seedDemo) return;
    const created = await tx
      .insert(complexes)
      .values(DEMO_COMPLEXES.map((c) => ({ ...c, organizationId: org.id })))
      .returning({ id: complexes.id, name: complexes.name });
    await seedDemoHouses(tx, org.id, created);
    await seedDemoMembers(tx, org.id);
    const [dispatcherRole] = await tx
      .insert(staffRoles)
      .values([
        {
          organizationId: org.id,
          name: 'Диспетчер',
          permissions: {
            complexes: ['view'],
            houses: ['view'],
            service_requests: ['view', 'create', 'edit'],
            members: ['view', 'create', 'edit'],
            articles: ['view', 'create', 'edit'],
          },
        },
        { organizationId: org.id, name: 'Інженер', permissions: { complexes: ['view'], service_requests: ['view', 'edit'] } },
      ])
      .returning();
    const [dispatcher] = await tx
      .insert(users)
      .values({
        organizationId: org.id,
        name: 'Оксана Коваленко',
        email: DEMO_STAFF.email,
        phone: '+380671234567',
        passwordHash: await hashPassword(DEMO_STAFF.password, config.passwordHashCost),
        roleId: dispatcherRole.id,
        tutorialCompleted: true,
      })
      .returning();
    await tx.insert(userComplexes).values(created.slice(0, 2).map((c) => ({ userId: dispatcher.id, complexId: c.id })));
    await seedDemoStaff(tx, org.id, created, config);
    await seedDemoCommunity(tx, org.id, adminUser.id, created);
    await seedDemoVoting(tx, org.id, adminUser.id, linkKeyOf(config));
    await seedDemoRequests(tx, org.id, created);
    await seedDemoInterview(tx, org.id, adminUser.id);
  });
  return true;
}

/**
 * On a production start (`config.production`), why this database must not be served, in one line
 * naming what to do; undefined when it may. An empty database gets its first admin only from
 * ADMIN_PASSWORD (the default is published). In a database that holds accounts, none of those the
 * seed creates may still sign in with a published password: a demo database moved to production.
 */
export async function productionDatabaseRefusal(
  db: Db,
  config: Pick<AppConfig, 'production' | 'adminEmail' | 'adminPasswordSet'>,
): Promise<string | undefined> {
  if (!config.production) return undefined;
  const start = `Production start (${config.production}) refused:`;
  const [{ n }] = await db.select({ n: count() }).from(users);
  if (n === 0) {
    return config.adminPasswordSet ? undefined : `${start} set ADMIN_PASSWORD, the password of the first admin (${config.adminEmail}) of the empty database.`;
  }
  const seeded = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(inArray(users.email, [...new Set([DEMO_ADMIN.email, DEMO_STAFF.email, config.adminEmail])]));
  const published: string[] = [];
  for (const u of seeded) {
    for (const password of PUBLISHED_PASSWORDS) {
      if (await verifyPassword(u.passwordHash, password)) {
        published.push(u.email);
        break;
      }
    }
  }
  if (!published.length) return undefined;
  const [verb, them] = published.length > 1 ? ['sign', 'their passwords (or delete the accounts)'] : ['signs', 'its password (or delete the account)'];
  return `${start} ${published.join(', ')} still ${verb} in with a password published in the README; change ${them} on a local start first.`;
}

// ── staff ──

/**
 * Departments for the demo roles, one more role and an engineer, and the service request types
 * they handle. The engineer's password is random: they can choose one through «Забули пароль?».
 */
export async function seedDemoStaff(tx: Tx, organizationId: number, demoComplexes: { id: number }[], config: Pick<AppConfig, 'passwordHashCost'>) {
  const deps = await tx
    .insert(staffDepartures)
    .values(['Диспетчерська служба', 'Технічна служба', 'Бухгалтерія'].map((name) => ({ organizationId, name })))
    .returning({ id: staffDepartures.id, name: staffDepartures.name });
  const dep = (name: string) => deps.find((d) => d.name === name)!.id;
  const roleIn = async (name: string, departureId: number) => {
    const [role] = await tx
      .update(staffRoles)
      .set({ departureId })
      .where(and(eq(staffRoles.organizationId, organizationId), eq(staffRoles.name, name)))
      .returning({ id: staffRoles.id });
    return role.id;
  };
  const dispatcherRole = await roleIn('Диспетчер', dep('Диспетчерська служба'));
  const engineerRole = await roleIn('Інженер', dep('Технічна служба'));
  await tx.insert(staffRoles).values({
    organizationId,
    name: 'Бухгалтер',
    departureId: dep('Бухгалтерія'),
    permissions: { complexes: ['view'], realty: ['view'], members: ['view', 'edit'] },
  });
  const [engineer] = await tx
    .insert(users)
    .values({
      organizationId,
      name: 'Андрій Мельник',
      email: 'engineer@demo.ua',
      phone: '+380931112244',
      passwordHash: await hashPassword(randomBytes(24).toString('base64url'), config.passwordHashCost),
      roleId: engineerRole,
      tutorialCompleted: true,
    })
    .returning({ id: users.id });
  await tx.insert(userComplexes).values(demoComplexes.slice(0, 3).map((c) => ({ userId: engineer.id, complexId: c.id })));
  const [dispatcher] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.roleId, dispatcherRole)))
    .limit(1);

  const types = await tx
    .insert(serviceRequestTypes)
    .values([
      { organizationId, name: 'Сантехніка', description: 'Протікання, засмічення каналізації, заміна змішувачів.' },
      { organizationId, name: 'Електрика', description: 'Відсутність світла, іскріння розеток, освітлення в під’їзді.' },
      { organizationId, name: 'Ліфт', description: 'Зупинка ліфта, сторонні звуки, не працює кнопка виклику.' },
      { organizationId, name: 'Прибирання території', description: 'Сміття, сніг, прибирання сходових клітин.' },
      { organizationId, name: 'Перепустки та паркінг', description: 'Гостьові перепустки, доступ до паркінгу.' },
    ])
    .returning({ id: serviceRequestTypes.id, name: serviceRequestTypes.name });
  const typeId = (name: string) => types.find((t) => t.name === name)!.id;
  const technical = ['Сантехніка', 'Електрика', 'Ліфт'].map(typeId);
  await tx
    .insert(serviceRequestTypeRoles)
    .values([
      ...technical.map((id) => ({ typeId: id, roleId: engineerRole })),
      ...['Прибирання території', 'Перепустки та паркінг'].map((name) => ({ typeId: typeId(name), roleId: dispatcherRole })),
    ]);
  await tx
    .insert(serviceRequestTypeStaff)
    .values([
      ...technical.map((id) => ({ typeId: id, userId: engineer.id })),
      ...(dispatcher ? [{ typeId: typeId('Перепустки та паркінг'), userId: dispatcher.id }] : []),
    ]);
}

// ── members ──

const SURNAMES = [
  'Коваленко',
  'Бондаренко',
  'Ткаченко',
  'Шевчук',
  'Мельник',
  'Кравчук',
  'Олійник',
  'Савченко',
  'Руденко',
  'Марченко',
  'Гончаренко',
  'Лисенко',
  'Павленко',
  'Захарченко',
  'Остапчук',
  'Гриценко',
  'Яковенко',
  'Литвиненко',
  'Сидоренко',
  'Поліщук',
];
const MALE = [
  ['Олександр', 'Олександрович', 'Олександрівна'],
  ['Андрій', 'Андрійович', 'Андріївна'],
  ['Богдан', 'Богданович', 'Богданівна'],
  ['Віталій', 'Віталійович', 'Віталіївна'],
  ['Дмитро', 'Дмитрович', 'Дмитрівна'],
  ['Тарас', 'Тарасович', 'Тарасівна'],
  ['Юрій', 'Юрійович', 'Юріївна'],
  ['Ігор', 'Ігорович', 'Ігорівна'],
] as const;
const FEMALE = ['Олена', 'Ірина', 'Наталія', 'Оксана', 'Тетяна', 'Марія', 'Ганна', 'Юлія', 'Світлана', 'Катерина'];
const SERVICES: [string, number][] = [
  ['Утримання будинку', 4.2],
  ['Вивезення сміття', 0],
  ['Ліфт', 0],
];
const DEMO_MEMBER_UNITS_PER_HOUSE = 10;
const LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'h',
  ґ: 'g',
  д: 'd',
  е: 'e',
  є: 'ie',
  ж: 'zh',
  з: 'z',
  и: 'y',
  і: 'i',
  ї: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ь: '',
  ю: 'iu',
  я: 'ia',
  "'": '',
};
const latin = (s: string) => Array.from(s.toLowerCase(), (c) => LATIN[c] ?? c).join('');

/**
 * Demo residents for the first apartments of each demo house: an owner (a couple are co-owners
 * with halves), a family member now and then, a tenant in some; cars for some owners with a
 * parking place where the house has one; three months of charges with some paid.
 */
export async function seedDemoMembers(tx: Tx, organizationId: number): Promise<number> {
  const roles = await residentRolesOf(tx, organizationId);
  const role = (code: string) => roles.find((r) => r.code === code)!.id;
  const units = await tx
    .select({ id: realty.id, houseId: realty.houseId, type: realty.type, number: realty.number, area: realty.area })
    .from(realty)
    .where(eq(realty.organizationId, organizationId))
    .orderBy(asc(realty.houseId), asc(realty.id));
  const byHouse = new Map<number, typeof units>();
  for (const u of units) byHouse.set(u.houseId, [...(byHouse.get(u.houseId) ?? []), u]);
  let n = 0;
  const person = (female: boolean, surname: string) => {
    n += 1;
    const father = MALE[(n * 3) % MALE.length];
    const first = female ? FEMALE[n % FEMALE.length] : MALE[n % MALE.length][0];
    const patronymic = female ? father[2] : father[1];
    // Surnames in -енко, -ук, -ик are the same for women and men.
    const sur = surname;
    return {
      organizationId,
      name: `${sur} ${first} ${patronymic}`,
      phone: n % 5 === 4 ? null : `+38067${String(3000000 + n * 7919).slice(-7)}`,
      email: n % 3 === 0 ? null : `${latin(first)}.${latin(sur)}${n}@ukr.net`,
      status: n % 17 === 0 ? ('inactive' as const) : ('active' as const),
    };
  };
  const links: { memberIndex: number; realtyId: number; roleId: number; share: [number, number] | null }[] = [];
  const people: ReturnType<typeof person>[] = [];
  const cars: { memberIndex: number; realtyId: number | null; plate: string; brand: string; model: string; color: string }[] = [];
  const months = ['2026-01-01', '2026-02-01', '2026-03-01'];
  const charges: (typeof bills.$inferInsert)[] = [];
  const CARS = [
    ['Toyota', 'Corolla', 'білий'],
    ['Škoda', 'Octavia', 'сірий'],
    ['Renault', 'Duster', 'синій'],
    ['Volkswagen', 'Passat', 'чорний'],
    ['Hyundai', 'Tucson', 'червоний'],
  ];
  const REGION = ['AA', 'KA', 'BC', 'BH', 'AE', 'AX'];
  for (const houseUnits of byHouse.values()) {
    const flats = houseUnits.filter((u) => u.type === 'apartment').slice(0, DEMO_MEMBER_UNITS_PER_HOUSE);
    const parking = houseUnits.filter((u) => u.type === 'parking');
    flats.forEach((flat, i) => {
      const surname = SURNAMES[(people.length + i) % SURNAMES.length];
      const owner = people.push(person(i % 2 === 1, surname)) - 1;
      if (i % 4 === 1) {
        const co = people.push(person(i % 2 === 0, surname)) - 1;
        links.push(
          { memberIndex: owner, realtyId: flat.id, roleId: role('co_owner'), share: [1, 2] },
          { memberIndex: co, realtyId: flat.id, roleId: role('co_owner'), share: [1, 2] },
        );
      } else {
        links.push({ memberIndex: owner, realtyId: flat.id, roleId: role('owner'), share: [1, 1] });
      }
      if (i % 3 === 0) links.push({ memberIndex: people.push(person(true, surname)) - 1, realtyId: flat.id, roleId: role('family'), share: null });
      if (i % 5 === 3)
        links.push({
          memberIndex: people.push(person(false, SURNAMES[(i * 7) % SURNAMES.length])) - 1,
          realtyId: flat.id,
          roleId: role('tenant'),
          share: null,
        });
      if (i % 2 === 0) {
        const [brand, model, color] = CARS[(owner + i) % CARS.length];
        const plate = `${REGION[owner % REGION.length]}${String(1000 + owner * 37).slice(-4)}${['BX', 'KI', 'MO', 'TE'][owner % 4]}`;
        cars.push({ memberIndex: owner, realtyId: parking[i]?.id ?? null, plate, brand, model, color });
      }
      const area = Number(flat.area ?? 50);
      months.forEach((period, m) => {
        SERVICES.forEach(([service, perM2], s) => {
          const amount = perM2 ? Math.round(area * perM2 * 100) : s === 1 ? 8500 : 12000;
          const paid = m < 2 || (i + s) % 3 === 0 ? amount : (i + s) % 3 === 1 ? Math.round(amount / 2) : 0;
          charges.push({ organizationId, realtyId: flat.id, period, service, amount, paid, status: paid >= amount ? 'paid' : paid > 0 ? 'partial' : 'unpaid' });
        });
      });
    });
  }
  if (people.length === 0) return 0;
  const created = await tx.insert(members).values(people).returning({ id: members.id });
  await tx.insert(residents).values(
    links.map((l) => ({
      organizationId,
      memberId: created[l.memberIndex].id,
      realtyId: l.realtyId,
      roleId: l.roleId,
      shareNumerator: l.share?.[0] ?? null,
      shareDenominator: l.share?.[1] ?? null,
    })),
  );
  if (cars.length)
    await tx
      .insert(vehicles)
      .values(
        cars.map((c) => ({
          organizationId,
          memberId: created[c.memberIndex].id,
          realtyId: c.realtyId,
          plate: c.plate,
          brand: c.brand,
          model: c.model,
          color: c.color,
        })),
      )
      .onConflictDoNothing();
  for (let i = 0; i < charges.length; i += 500) await tx.insert(bills).values(charges.slice(i, i + 500));
  return people.length;
}

// ── community content ──

const DAY = 24 * 3600 * 1000;

/** Demo news for the demo complexes: published, one urgent, one scheduled, one draft. */
export async function seedDemoCommunity(tx: Tx & Pick<Db, 'delete'>, organizationId: number, authorId: number, demoComplexes: { id: number; name: string }[]) {
  const [lypovyi, sonyachna, prymorskyi] = demoComplexes;
  if (!lypovyi || !sonyachna || !prymorskyi) return;
  const now = Date.now();
  const news: { title: string; body: string; complexIds: number[]; status: 'draft' | 'published'; publishAt: Date | null; isEmergency?: boolean }[] = [
    {
      title: 'Планове відключення гарячої води',
      body:
        '<p>Шановні мешканці! <strong>15 числа з 9:00 до 18:00</strong> буде відключено гарячу воду через планову промивку ' +
        'теплообмінника.</p><p>Просимо заздалегідь зробити запас води.</p>',
      complexIds: [lypovyi.id],
      status: 'published',
      publishAt: new Date(now - 2 * DAY),
    },
    {
      title: 'Увага: ремонт ліфта у секції 2',
      body: '<p>Ліфт у секції 2 не працюватиме до завершення ремонту. Вибачте за незручності.</p>',
      complexIds: [lypovyi.id],
      status: 'published',
      publishAt: new Date(now - 3600 * 1000),
      isEmergency: true,
    },
    {
      title: 'Суботник на прибудинковій території',
      body:
        '<p>Запрошуємо всіх охочих долучитися до весняного прибирання двору. Рукавиці та мішки видамо на місці.</p><ul><li>Збір біля ' +
        'дитячого майданчика</li><li>Початок о 10:00</li></ul>',
      complexIds: [sonyachna.id],
      status: 'published',
      publishAt: new Date(now - 5 * DAY),
    },
    {
      title: 'Новий графік роботи консьєржів',
      body: '<p>З наступного місяця консьєржі працюватимуть цілодобово.</p>',
      complexIds: [lypovyi.id, sonyachna.id],
      status: 'published',
      publishAt: new Date(now + 3 * DAY),
    },
    {
      title: 'Звіт про витрати за квартал',
      body: '<p>Чернетка звіту: таблиця витрат буде додана після перевірки бухгалтерією.</p>',
      complexIds: [prymorskyi.id],
      status: 'draft',
      publishAt: null,
    },
  ];
  for (const n of news) {
    const [row] = await tx
      .insert(articles)
      .values({ organizationId, title: n.title, body: n.body, status: n.status, publishAt: n.publishAt, isEmergency: n.isEmergency ?? false, authorId })
      .returning({ id: articles.id });
    await tx.insert(articleComplexes).values(n.complexIds.map((complexId) => ({ articleId: row.id, complexId })));
  }
  const notices = [
    {
      title: 'Повірка лічильників води',
      body: 'Протягом тижня представники водоканалу перевірятимуть лічильники. Просимо забезпечити доступ до квартир з 9:00 до 17:00.',
      complexId: lypovyi.id,
      from: now - DAY,
      until: now + 6 * DAY,
    },
    {
      title: 'Зміна тарифу на утримання будинку',
      body: 'З 1 числа наступного місяця тариф становитиме 8,40 грн за м².',
      complexId: sonyachna.id,
      from: now + 7 * DAY,
      until: null,
    },
    {
      title: 'Прибирання сходових клітин',
      body: 'Графік прибирання оновлено: щовівторка та щоп’ятниці.',
      complexId: lypovyi.id,
      from: now - 30 * DAY,
      until: now - 2 * DAY,
    },
  ];
  for (const n of notices) {
    const [row] = await tx
      .insert(announcements)
      .values({ organizationId, title: n.title, body: n.body, validFrom: new Date(n.from), validUntil: n.until === null ? null : new Date(n.until), authorId })
      .returning({ id: announcements.id });
    await tx.insert(announcementComplexes).values({ announcementId: row.id, complexId: n.complexId });
  }
  /** A round hour (UTC) some days from now, so that demo times read naturally. */
  const at = (days: number, hourUtc: number) => {
    const d = new Date(now + days * DAY);
    d.setUTCHours(hourUtc, 0, 0, 0);
    return d.getTime();
  };
  const poster = [
    {
      title: 'Дитяче свято у дворі',
      description: 'Аніматори, батут і морозиво для малечі.',
      place: 'Дитячий майданчик біля секції 1',
      complexId: lypovyi.id,
      start: at(4, 9),
      hours: 3,
    },
    {
      title: 'Збори співвласників',
      description: 'Обговорення кошторису на наступний рік.',
      place: 'Хол першого поверху',
      complexId: sonyachna.id,
      start: at(10, 16),
      hours: 2,
    },
    { title: 'Толока у сквері', description: 'Висаджуємо кущі бузку.', place: 'Сквер за будинком', complexId: lypovyi.id, start: at(-12, 8), hours: 4 },
  ];
  for (const e of poster) {
    const [row] = await tx
      .insert(events)
      .values({
        organizationId,
        title: e.title,
        description: e.description,
        place: e.place,
        startsAt: new Date(e.start),
        endsAt: new Date(e.start + e.hours * 3600 * 1000),
        authorId,
      })
      .returning({ id: events.id });
    await tx.insert(eventComplexes).values({ eventId: row.id, complexId: e.complexId });
  }
  const [firstHouse] = await tx.select({ id: houses.id }).from(houses).where(eq(houses.complexId, lypovyi.id)).orderBy(asc(houses.id)).limit(1);
  const [secondHouse] = await tx.select({ id: houses.id }).from(houses).where(eq(houses.complexId, sonyachna.id)).orderBy(asc(houses.id)).limit(1);
  const ads = [
    {
      house: firstHouse,
      name: 'Продам дитячий велосипед',
      description: 'Велосипед на 4–7 років, у гарному стані. Кв. 48, телефон у консьєржа.',
      published: true,
    },
    { house: firstHouse, name: 'Шукаю няню на вечори', description: 'Двоє дітей, 5 і 8 років, будні з 18:00 до 21:00.', published: false },
    { house: secondHouse, name: 'Віддам кошеня в добрі руки', description: 'Привчене до лотка, 3 місяці.', published: true },
  ];
  for (const a of ads) {
    if (a.house)
      await tx
        .insert(advertisements)
        .values({ organizationId, houseId: a.house.id, name: a.name, description: a.description, published: a.published, authorId });
  }
  const [plumbers, electricians, security] = await tx
    .insert(contactGroups)
    .values(['Сантехніки', 'Електрики', 'Охорона'].map((name) => ({ organizationId, name })))
    .returning({ id: contactGroups.id });
  for (const complex of [lypovyi, sonyachna]) {
    const [office, emergency] = await tx
      .insert(contactSections)
      .values([
        { organizationId, complexId: complex.id, name: 'Керуюча компанія', description: 'Офіс працює з 9:00 до 18:00 у будні.', type: 'management' as const },
        { organizationId, complexId: complex.id, name: 'Аварійні служби', description: 'Цілодобово.', type: 'emergency' as const },
      ])
      .returning({ id: contactSections.id });
    await tx.insert(contacts).values([
      {
        organizationId,
        sectionId: office.id,
        name: 'Приймальня керуючої компанії',
        phone: '+380441234567',
        email: 'office@zatyshnyi-dim.ua',
        link: 'https://zatyshnyi-dim.ua',
      },
      { organizationId, sectionId: emergency.id, groupId: plumbers.id, name: 'Аварійна сантехнічна служба', phone: '+380671112233' },
      { organizationId, sectionId: emergency.id, groupId: electricians.id, name: 'Черговий електрик', phone: '+380503334455' },
      {
        organizationId,
        sectionId: office.id,
        groupId: security.id,
        name: 'Пост охорони',
        phone: '+380935556677',
        description: 'КПП біля в’їзду на територію.',
      },
    ]);
  }
  const offers = [
    {
      partner: 'Кав’ярня «Зерно»',
      title: 'Знижка на каву та випічку',
      percent: 15,
      promoCode: 'ZATYSHOK15',
      address: 'вул. Липова, 10',
      phone: '+380671234500',
      complexIds: [lypovyi.id, sonyachna.id],
    },
    {
      partner: 'Хімчистка «Свіжість»',
      title: 'Чистка пуховиків',
      percent: 20,
      promoCode: null,
      address: 'вул. Стрийська, 40',
      phone: '+380322445566',
      complexIds: [sonyachna.id],
    },
  ];
  for (const o of offers) {
    const [row] = await tx
      .insert(discounts)
      .values({
        organizationId,
        partner: o.partner,
        title: o.title,
        percent: o.percent,
        promoCode: o.promoCode,
        address: o.address,
        phone: o.phone,
        validUntil: new Date(now + 60 * DAY),
      })
      .returning({ id: discounts.id });
    await tx.insert(discountComplexes).values(o.complexIds.map((complexId) => ({ discountId: row.id, complexId })));
  }
  if (firstHouse) {
    await tx.insert(cameras).values([
      {
        organizationId,
        houseId: firstHouse.id,
        name: 'Вхід до секції 1',
        place: 'Над вхідними дверима',
        streamUrl: 'rtsp://192.168.10.21:554/stream1',
        snapshotUrl: null,
      },
      {
        organizationId,
        houseId: firstHouse.id,
        name: 'Двір і дитячий майданчик',
        place: 'Фасад, 3-й поверх',
        streamUrl: null,
        snapshotUrl: 'https://cams.zatyshnyi-dim.ua/lypova12/yard.jpg',
      },
    ]);
  }
}

// ── general meetings ──

/**
 * One general meeting in the first demo house with owners: held five days ago after a notice
 * in time, two questions, some co-owners voted on paper and some through the link.
 */
export async function seedDemoVoting(tx: Tx & Pick<Db, 'delete'>, organizationId: number, authorId: number, linkKey: SealKey) {
  const [house] = await tx
    .select({ id: realty.houseId })
    .from(residents)
    .innerJoin(realty, eq(realty.id, residents.realtyId))
    .where(eq(residents.organizationId, organizationId))
    .orderBy(asc(realty.houseId))
    .limit(1);
  if (!house) return;
  const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
  const [meeting] = await tx
    .insert(votings)
    .values({
      organizationId,
      houseId: house.id,
      title: 'Кошторис на 2026 рік і ремонт покрівлі',
      regime: 'osbb',
      initiator: 'Правління ОСББ «Липовий гай»',
      meetingDate: day(-5),
      meetingTime: '19:00',
      place: 'Хол першого під’їзду',
      videoTools: 'Google Meet, посилання в повідомленні',
      chair: 'Гончаренко Ігор Петрович',
      statuteText: 'Рішення з питань кошторису приймаються, якщо за них проголосували співвласники, які разом мають більше 60 % голосів (п. 7.4 статуту).',
      noticeDate: day(-17),
      ...newLinkToken(linkKey).columns,
      createdBy: authorId,
    })
    .returning();
  const questions = await tx
    .insert(votingQuestions)
    .values([
      {
        votingId: meeting.id,
        position: 1,
        title: 'Затвердити кошторис ОСББ на 2026 рік з внеском 9,80 грн за 1 м² на місяць.',
        threshold: 'statute' as const,
        thresholdPercent: '60.00',
        capped: true,
      },
      {
        votingId: meeting.id,
        position: 2,
        title: 'Провести поточний ремонт покрівлі за рахунок ремонтного фонду до 1 жовтня 2026 року.',
        threshold: 'majority' as const,
      },
    ])
    .returning();
  await snapshotElectorate(tx, meeting.id, organizationId, house.id);
  const people = await tx.select().from(votingParticipants).where(eq(votingParticipants.votingId, meeting.id)).orderBy(asc(votingParticipants.id));
  for (const [i, p] of people.entries()) {
    if (i % 3 === 2) continue; // every third co-owner has not voted yet
    const electronic = i % 2 === 1;
    const [ballot] = await tx
      .insert(votingBallots)
      .values({
        votingId: meeting.id,
        participantId: p.id,
        channel: electronic ? 'electronic' : 'paper',
        ballotDate: day(electronic ? -4 : -5),
        identification: electronic ? 'email_code' : null,
        identifiedTarget: electronic ? 'o***a@ukr.net' : null,
        recordedBy: electronic ? null : authorId,
      })
      .returning();
    await tx.insert(votingAnswers).values(
      questions.map((q, k) => ({
        ballotId: ballot.id,
        votingId: meeting.id,
        participantId: p.id,
        questionId: q.id,
        answer: (i + k) % 5 === 4 ? ('against' as const) : ('for' as const),
      })),
    );
  }
}

// ── service requests ──

const DEMO_REQUEST_TEXTS: Record<string, string[]> = {
  Сантехніка: [
    'Тече змішувач на кухні, вода капає навіть у закритому положенні.',
    'Засмітилась каналізація у ванній, вода не йде.',
    'Протікає стеля у ванній — схоже, від сусідів згори.',
    'Слабкий тиск гарячої води в усій квартирі.',
  ],
  Електрика: ['Не працює освітлення на сходовій клітині 5-го поверху.', 'Іскрить розетка в коридорі квартири.', 'Вибиває автомат у щитку на поверсі.'],
  Ліфт: ['Ліфт зупиняється між поверхами, чути скрегіт.', 'Не працює кнопка виклику ліфта на 3-му поверсі.'],
  'Прибирання території': ['Біля під’їзду не вивезли сміття вже третій день.', 'Сходи не прибирались тиждень, просимо перевірити графік.'],
  'Перепустки та паркінг': ['Потрібна гостьова перепустка на паркінг на суботу.', 'Чужий автомобіль стоїть на моєму паркомісці.'],
};
const DEMO_STAGE_PLAN = ['new', 'new', 'underReview', 'executor', 'executor', 'done', 'done', 'underReview'] as const;

/**
 * A few dozen requests in the first three demo complexes, across every stage, with their history
 * and some messages in both chats; a few unread notifications for the admin.
 */
export async function seedDemoRequests(tx: Tx, organizationId: number, demoComplexes: { id: number }[]) {
  const staff = await tx
    .select({ id: users.id, name: users.name, email: users.email, isAdmin: users.isAdmin })
    .from(users)
    .where(eq(users.organizationId, organizationId));
  const admin = staff.find((u) => u.isAdmin);
  const engineer = staff.find((u) => u.email === 'engineer@demo.ua');
  const dispatcher = staff.find((u) => u.email === DEMO_STAFF.email);
  if (!admin || !engineer || !dispatcher) return;
  const types = await tx
    .select({ id: serviceRequestTypes.id, name: serviceRequestTypes.name })
    .from(serviceRequestTypes)
    .where(eq(serviceRequestTypes.organizationId, organizationId));
  const flats = await tx
    .select({
      realtyId: realty.id,
      number: realty.number,
      houseId: realty.houseId,
      complexId: houses.complexId,
      memberId: members.id,
      memberName: members.name,
    })
    .from(residents)
    .innerJoin(realty, eq(realty.id, residents.realtyId))
    .innerJoin(houses, eq(houses.id, realty.houseId))
    .innerJoin(members, eq(members.id, residents.memberId))
    .where(eq(realty.organizationId, organizationId))
    .orderBy(asc(realty.id));
  const inDemo = flats.filter((f) => demoComplexes.slice(0, 3).some((c) => c.id === f.complexId));
  if (inDemo.length === 0 || types.length === 0) return;
  const houseRows = await selectHouses(tx).where(eq(houses.organizationId, organizationId));
  const addressOf = new Map(houseRows.map((h) => [h.id, formatAddress(h)]));
  const now = Date.now();
  const HOUR = 3600 * 1000;
  const count = 36;
  for (let i = 0; i < count; i++) {
    const type = types[i % types.length];
    const texts = DEMO_REQUEST_TEXTS[type.name] ?? ['Просимо перевірити несправність.'];
    const flat = inDemo[(i * 7) % inDemo.length];
    const stage = DEMO_STAGE_PLAN[i % DEMO_STAGE_PLAN.length];
    const technical = ['Сантехніка', 'Електрика', 'Ліфт'].includes(type.name);
    const responsible = technical ? engineer : dispatcher;
    const performer = stage === 'executor' || stage === 'done' ? engineer : i % 3 === 0 ? engineer : null;
    const createdAt = new Date(now - (count - i) * 9 * HOUR);
    const deadline = new Date(createdAt.getTime() + (technical ? 48 : 72) * HOUR);
    const text = texts[i % texts.length];
    const number = i + 1;
    const [row] = await tx
      .insert(serviceRequests)
      .values({
        organizationId,
        number,
        typeId: type.id,
        houseId: flat.houseId,
        realtyId: flat.realtyId,
        memberId: flat.memberId,
        text,
        stage,
        priority: i % 9 === 0 ? 'urgent' : i % 4 === 0 ? 'high' : 'normal',
        deadline,
        responsibleId: responsible.id,
        performerId: performer?.id ?? null,
        createdBy: dispatcher.id,
        doneAt: stage === 'done' ? new Date(createdAt.getTime() + 20 * HOUR) : null,
        search: requestSearchText({ number, text, memberName: flat.memberName, address: addressOf.get(flat.houseId) ?? '', realtyNumber: flat.number }),
        createdAt,
        updatedAt: createdAt,
      })
      .returning({ id: serviceRequests.id });
    const path = REQUEST_STAGES.slice(0, REQUEST_STAGES.indexOf(stage) + 1);
    await tx.insert(serviceRequestHistory).values(
      path.map((to, k) => ({
        requestId: row.id,
        kind: 'stage' as const,
        userId: k === 3 ? engineer.id : dispatcher.id,
        actorName: k === 3 ? engineer.name : dispatcher.name,
        fromStage: k === 0 ? null : path[k - 1],
        toStage: to,
        comment: k === 0 ? 'Заявку створено.' : k === 3 ? 'Роботи виконано, мешканця повідомлено.' : '',
        createdAt: new Date(createdAt.getTime() + k * 3 * HOUR),
      })),
    );
    if (stage !== 'new') {
      await tx.insert(serviceRequestComments).values([
        {
          requestId: row.id,
          chatType: 'member_chat',
          authorMemberId: flat.memberId,
          authorName: flat.memberName,
          message: 'Доброго дня! Коли приблизно прийде майстер?',
          createdAt: new Date(createdAt.getTime() + HOUR),
        },
        {
          requestId: row.id,
          chatType: 'member_chat',
          authorUserId: dispatcher.id,
          authorName: dispatcher.name,
          message: 'Доброго дня! Заявку прийнято, майстер зателефонує вам сьогодні.',
          createdAt: new Date(createdAt.getTime() + 2 * HOUR),
        },
        {
          requestId: row.id,
          chatType: 'staff_chat',
          authorUserId: dispatcher.id,
          authorName: dispatcher.name,
          message: `Андрію, глянь, будь ласка, кв. ${flat.number}. Мешканець удома після 17:00.`,
          createdAt: new Date(createdAt.getTime() + 2 * HOUR + 600_000),
        },
        ...(stage === 'executor' || stage === 'done'
          ? [
              {
                requestId: row.id,
                chatType: 'staff_chat' as const,
                authorUserId: engineer.id,
                authorName: engineer.name,
                message: 'Прийняв, буду сьогодні ввечері.',
                createdAt: new Date(createdAt.getTime() + 4 * HOUR),
              },
            ]
          : []),
      ]);
    }
    if (i >= count - 4) {
      await tx.insert(notifications).values({
        organizationId,
        userId: admin.id,
        kind: 'request_created',
        requestId: row.id,
        text: `Нова заявка №${number}: ${addressOf.get(flat.houseId) ?? ''}`,
        createdAt,
      });
    }
  }
  await tx.insert(serviceRequestCounters).values({ organizationId, lastNumber: count });
}

// ── surveys ──

/** One active survey of the first demo complex that has residents, with a few answers recorded by phone and on paper. */
export async function seedDemoInterview(tx: Tx, organizationId: number, authorId: number) {
  const people = await tx
    .select({ memberId: residents.memberId, complexId: houses.complexId })
    .from(residents)
    .innerJoin(realty, eq(realty.id, residents.realtyId))
    .innerJoin(houses, eq(houses.id, realty.houseId))
    .where(eq(residents.organizationId, organizationId))
    .orderBy(asc(houses.complexId), asc(residents.memberId));
  const complexId = people.find((p) => p.complexId !== null)?.complexId;
  if (!complexId) return;
  const members = [...new Set(people.filter((p) => p.complexId === complexId).map((p) => p.memberId))];
  const [survey] = await tx
    .insert(interviews)
    .values({
      organizationId,
      title: 'Благоустрій двору навесні',
      description: 'Допоможіть обрати, що зробити у дворі насамперед. Відповіді приймаємо телефоном і на паперових анкетах у консьєржа.',
      startAt: new Date(Date.now() - 3 * DAY),
      endAt: new Date(Date.now() + 11 * DAY),
      published: true,
      createdBy: authorId,
    })
    .returning();
  await tx.insert(interviewComplexes).values({ interviewId: survey.id, complexId });
  const [q1, q2, q3] = await tx
    .insert(interviewQuestions)
    .values([
      { interviewId: survey.id, position: 1, title: 'Що облаштувати насамперед?', kind: 'single' as const },
      { interviewId: survey.id, position: 2, title: 'Оцініть прибирання прибудинкової території', kind: 'scale' as const, scaleMax: 5 },
      { interviewId: survey.id, position: 3, title: 'Ваші пропозиції', kind: 'text' as const },
    ])
    .returning();
  const options = await tx
    .insert(interviewOptions)
    .values(['Дитячий майданчик', 'Велопарковку', 'Лавки та освітлення'].map((title, i) => ({ questionId: q1.id, position: i + 1, title })))
    .returning();
  const texts = ['Поставити смітники біля лавок', 'Висадити дерева вздовж паркану', 'Зробити пандус біля другого під’їзду'];
  for (const [i, memberId] of members.slice(0, 5).entries()) {
    const [r] = await tx
      .insert(interviewResponses)
      .values({ interviewId: survey.id, memberId, channel: i % 2 === 0 ? ('phone' as const) : ('paper' as const), recordedBy: authorId })
      .returning();
    const key = (q: number) => `seed-${r.id}-${q}`;
    await tx
      .insert(interviewAnswers)
      .values([
        { interviewId: survey.id, responseId: r.id, questionId: q1.id, optionId: options[[0, 0, 2, 1, 0][i]].id, answerKey: key(1) },
        { interviewId: survey.id, responseId: r.id, questionId: q2.id, value: [4, 3, 5, 2, 4][i], answerKey: key(2) },
        ...(i < texts.length ? [{ interviewId: survey.id, responseId: r.id, questionId: q3.id, text: texts[i], answerKey: key(3) }] : []),
      ]);
  }
}
