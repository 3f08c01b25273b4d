import { count } from 'drizzle-orm';
import type { AppConfig } from '../config.ts';
import { hashPassword } from '../lib/secrets.ts';
import type { Db } from './index.ts';
import { complexes, organizations, staffRoles, userComplexes, users } from './schema.ts';

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
    await tx.insert(users).values({
      organizationId: org.id,
      name: 'Адміністратор',
      email: config.adminEmail,
      passwordHash: adminHash,
      isAdmin: true,
      tutorialCompleted: false,
    });
    if (!config.seedDemo) return;
    const created = await tx
      .insert(complexes)
      .values(DEMO_COMPLEXES.map((c) => ({ ...c, organizationId: org.id })))
      .returning({ id: complexes.id });
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
  });
  return true;
}
