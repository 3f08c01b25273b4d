import { and, asc, count, eq } from 'drizzle-orm';
import type { AppConfig } from '../config.ts';
import { hashPassword } from '../lib/secrets.ts';
import { ensureStreet } from '../modules/reference/streets.ts';
import type { Db } from './index.ts';
import { advertisements, cameras, discountComplexes, discounts, contactGroups, contacts, contactSections, announcementComplexes, announcements, articleComplexes, articles, complexes, eventComplexes, events, houses, houseTypes, organizations, realty, settlements, staffRoles, userComplexes, users } from './schema.ts';

type Tx = Pick<Db, 'select' | 'insert'>;

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
  for (let i = 1; i <= (h.commercial ?? 0); i++) units.push({ type: 'commercial', number: String(i), area: (60 + i * 12.5).toFixed(2), floor: 1, entrance: null });
  for (let i = 1; i <= (h.parking ?? 0); i++) units.push({ type: 'parking', number: String(i), area: '13.25', floor: -1, entrance: null });
  for (let i = 1; i <= (h.storage ?? 0); i++) units.push({ type: 'storage', number: String(i), area: (3 + (i % 4) * 0.75).toFixed(2), floor: -1, entrance: null });
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
    const streetId = await ensureStreet(tx, settlement.id, plan.street, plan.streetType);
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

export const DEMO_STAFF = { email: 'dispatcher@demo.ua', password: 'demo-staff-2026' };

const DEMO_COMPLEXES = [
  { name: 'ЖК «Липовий гай»', city: 'Київ', address: 'вул. Липова, 12', description: 'Три секції, підземний паркінг, закрита територія.' },
  { name: 'ЖК «Сонячна гавань»', city: 'Львів', address: 'вул. Стрийська, 45', description: 'Два будинки з комерційними приміщеннями на першому поверсі.' },
  { name: 'ЖК «Приморський»', city: 'Одеса', address: 'Французький бульвар, 60', description: 'Будинок ОСББ, власна котельня.' },
  { name: 'ЖК «Слобожанський»', city: 'Харків', address: 'просп. Науки, 14', description: 'Укриття в підвалі, генератор на ліфти.' },
  { name: 'ЖК «Дніпровські вогні»', city: 'Дніпро', address: 'Набережна Перемоги, 32', description: 'Висотний комплекс, комори та паркінг.' },
];

/** Fills an empty database with a realistic demo organization; does nothing when users exist. */
export async function seedIfEmpty(db: Db, config: Pick<AppConfig, 'adminEmail' | 'adminPassword' | 'seedDemo' | 'passwordHashCost'>) {
  const [{ n }] = await db.select({ n: count() }).from(users);
  if (n > 0) return false;
  const adminHash = await hashPassword(config.adminPassword, config.passwordHashCost);
  await db.transaction(async (tx) => {
    const [org] = await tx.insert(organizations).values({ name: 'Керуюча компанія «Затишний дім»' }).returning();
    const [adminUser] = await tx.insert(users).values({
      organizationId: org.id,
      name: 'Адміністратор',
      email: config.adminEmail,
      passwordHash: adminHash,
      isAdmin: true,
      tutorialCompleted: false,
    }).returning({ id: users.id });
    if (!config.seedDemo) return;
    const created = await tx
      .insert(complexes)
      .values(DEMO_COMPLEXES.map((c) => ({ ...c, organizationId: org.id })))
      .returning({ id: complexes.id, name: complexes.name });
    await seedDemoHouses(tx, org.id, created);
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
    await seedDemoCommunity(tx, org.id, adminUser.id, created);
  });
  return true;
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
      body: '<p>Шановні мешканці! <strong>15 числа з 9:00 до 18:00</strong> буде відключено гарячу воду через планову промивку теплообмінника.</p><p>Просимо заздалегідь зробити запас води.</p>',
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
      body: '<p>Запрошуємо всіх охочих долучитися до весняного прибирання двору. Рукавиці та мішки видамо на місці.</p><ul><li>Збір біля дитячого майданчика</li><li>Початок о 10:00</li></ul>',
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
    { title: 'Повірка лічильників води', body: 'Протягом тижня представники водоканалу перевірятимуть лічильники. Просимо забезпечити доступ до квартир з 9:00 до 17:00.', complexId: lypovyi.id, from: now - DAY, until: now + 6 * DAY },
    { title: 'Зміна тарифу на утримання будинку', body: 'З 1 числа наступного місяця тариф становитиме 8,40 грн за м².', complexId: sonyachna.id, from: now + 7 * DAY, until: null },
    { title: 'Прибирання сходових клітин', body: 'Графік прибирання оновлено: щовівторка та щоп’ятниці.', complexId: lypovyi.id, from: now - 30 * DAY, until: now - 2 * DAY },
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
    { title: 'Дитяче свято у дворі', description: 'Аніматори, батут і морозиво для малечі.', place: 'Дитячий майданчик біля секції 1', complexId: lypovyi.id, start: at(4, 9), hours: 3 },
    { title: 'Збори співвласників', description: 'Обговорення кошторису на наступний рік.', place: 'Хол першого поверху', complexId: sonyachna.id, start: at(10, 16), hours: 2 },
    { title: 'Толока у сквері', description: 'Висаджуємо кущі бузку.', place: 'Сквер за будинком', complexId: lypovyi.id, start: at(-12, 8), hours: 4 },
  ];
  for (const e of poster) {
    const [row] = await tx
      .insert(events)
      .values({ organizationId, title: e.title, description: e.description, place: e.place, startsAt: new Date(e.start), endsAt: new Date(e.start + e.hours * 3600 * 1000), authorId })
      .returning({ id: events.id });
    await tx.insert(eventComplexes).values({ eventId: row.id, complexId: e.complexId });
  }
  const [firstHouse] = await tx.select({ id: houses.id }).from(houses).where(eq(houses.complexId, lypovyi.id)).orderBy(asc(houses.id)).limit(1);
  const [secondHouse] = await tx.select({ id: houses.id }).from(houses).where(eq(houses.complexId, sonyachna.id)).orderBy(asc(houses.id)).limit(1);
  const ads = [
    { house: firstHouse, name: 'Продам дитячий велосипед', description: 'Велосипед на 4–7 років, у гарному стані. Кв. 48, телефон у консьєржа.', published: true },
    { house: firstHouse, name: 'Шукаю няню на вечори', description: 'Двоє дітей, 5 і 8 років, будні з 18:00 до 21:00.', published: false },
    { house: secondHouse, name: 'Віддам кошеня в добрі руки', description: 'Привчене до лотка, 3 місяці.', published: true },
  ];
  for (const a of ads) {
    if (a.house) await tx.insert(advertisements).values({ organizationId, houseId: a.house.id, name: a.name, description: a.description, published: a.published, authorId });
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
      { organizationId, sectionId: office.id, name: 'Приймальня керуючої компанії', phone: '+380441234567', email: 'office@zatyshnyi-dim.ua', link: 'https://zatyshnyi-dim.ua' },
      { organizationId, sectionId: emergency.id, groupId: plumbers.id, name: 'Аварійна сантехнічна служба', phone: '+380671112233' },
      { organizationId, sectionId: emergency.id, groupId: electricians.id, name: 'Черговий електрик', phone: '+380503334455' },
      { organizationId, sectionId: office.id, groupId: security.id, name: 'Пост охорони', phone: '+380935556677', description: 'КПП біля в’їзду на територію.' },
    ]);
  }
  const offers = [
    { partner: 'Кав’ярня «Зерно»', title: 'Знижка на каву та випічку', percent: 15, promoCode: 'ZATYSHOK15', address: 'вул. Липова, 10', phone: '+380671234500', complexIds: [lypovyi.id, sonyachna.id] },
    { partner: 'Хімчистка «Свіжість»', title: 'Чистка пуховиків', percent: 20, promoCode: null, address: 'вул. Стрийська, 40', phone: '+380322445566', complexIds: [sonyachna.id] },
  ];
  for (const o of offers) {
    const [row] = await tx
      .insert(discounts)
      .values({ organizationId, partner: o.partner, title: o.title, percent: o.percent, promoCode: o.promoCode, address: o.address, phone: o.phone, validUntil: new Date(now + 60 * DAY) })
      .returning({ id: discounts.id });
    await tx.insert(discountComplexes).values(o.complexIds.map((complexId) => ({ discountId: row.id, complexId })));
  }
  if (firstHouse) {
    await tx.insert(cameras).values([
      { organizationId, houseId: firstHouse.id, name: 'Вхід до секції 1', place: 'Над вхідними дверима', streamUrl: 'rtsp://192.168.10.21:554/stream1', snapshotUrl: null },
      { organizationId, houseId: firstHouse.id, name: 'Двір і дитячий майданчик', place: 'Фасад, 3-й поверх', streamUrl: null, snapshotUrl: 'https://cams.zatyshnyi-dim.ua/lypova12/yard.jpg' },
    ]);
  }
}
