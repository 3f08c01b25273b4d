import { createRequire } from 'node:module';
import { plural } from '../../lib/words.ts';
import path from 'node:path';
import { formatUa, unitLabel, type Meeting, type MeetingResults } from './meeting.ts';

const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = path.join(FONT_DIR, 'DejaVuSans.ttf');
const BOLD = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');

const STATUS_WORDS = {
  adopted: 'РІШЕННЯ ПРИЙНЯТО',
  rejected: 'РІШЕННЯ НЕ ПРИЙНЯТО («проти» досягло порогу)',
  open: 'РІШЕННЯ ЩЕ НЕ ПРИЙНЯТО: триває письмове опитування',
  not_adopted: 'РІШЕННЯ НЕ ПРИЙНЯТО (письмове опитування завершено)',
} as const;
const IDENT = { sms_code: 'одноразовий код у SMS на', email_code: 'одноразовий код на e-mail' } as const;

const m2 = (n: number) => `${n.toLocaleString('uk-UA', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} м²`;
const pc = (n: number) => `${n.toLocaleString('uk-UA', { maximumFractionDigits: 2 })} %`;

/**
 * The meeting's protocol in Ukrainian with the contents of Law 417, Art. 10(15) and Law 2866,
 * Art. 6(23): initiator; date, time, place and video tools; the number of co-owners and the total
 * area; every participant with unit, area and authority document; the chair; the agenda; and per
 * question «за» and «проти» by count and by area with the decision. DejaVu Sans is embedded, so
 * Cyrillic shows everywhere. Electronic ballots are marked with how the co-owner was identified.
 * docs/voting-rules.md §4.
 */
export async function protocolPdf(m: Meeting, r: MeetingResults, address: string): Promise<Buffer> {
  const v = m.voting;
  // Loaded on first use: it is a large module that most starts never need.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 50, bottom: 50, left: 56, right: 56 },
    info: { Title: `Протокол загальних зборів співвласників: ${v.title}`, Author: v.initiator },
  });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 112;
  const h = (text: string) => doc.moveDown(0.6).font('bold').fontSize(11.5).text(text, { width }).moveDown(0.2).font('regular').fontSize(10);
  const line = (label: string, value: string) =>
    doc
      .font('bold')
      .fontSize(10)
      .text(`${label}: `, { continued: true, width })
      .font('regular')
      .text(value || '—');

  doc.font('bold').fontSize(14).text('ПРОТОКОЛ', { align: 'center', width });
  doc.fontSize(12).text('загальних зборів співвласників багатоквартирного будинку', { align: 'center', width });
  doc.font('regular').fontSize(11).text(address, { align: 'center', width }).moveDown(0.8);
  doc.fontSize(10);
  line('Питання зборів', v.title);
  line('Режим', v.regime === 'osbb' ? 'ОСББ — Закон України № 2866-III' : 'без ОСББ — Закон України № 417-VIII');
  line('Ініціатор зборів', v.initiator);
  line('Дата і час', `${formatUa(v.meetingDate)}, ${v.meetingTime}`);
  line('Місце проведення', v.place);
  line('Засоби відеоконференції', v.videoTools || 'не використовувались');
  line('Загальна кількість співвласників', String(m.participants.length));
  line('Загальна площа всіх квартир і нежитлових приміщень', m2(r.totalArea));
  line(
    'Спосіб підрахунку',
    r.electorate.headcount
      ? 'один співвласник — один голос (один власник має ' + (v.regime === 'osbb' ? 'більше 50 %' : '50 % або більше') + ' площі)'
      : 'пропорційно площі, що належить співвласнику, у загальній площі',
  );
  line('Письмове опитування', `до ${formatUa(r.deadlines.poll_ends)} (45 календарних днів)`);
  if (v.statuteText) line('Правило статуту', v.statuteText);
  line('Голова зборів', v.chair);
  if (m.units.some((u) => u.areaCenti === null))
    doc
      .fillColor('#b00020')
      .text(`Увага: у ${r.unitsWithoutArea} ${plural(r.unitsWithoutArea, ['приміщенні', 'приміщеннях', 'приміщеннях'])} площу не вказано.`)
      .fillColor('black');

  h('Порядок денний');
  for (const q of m.questions) doc.text(`${q.position}. ${q.title}`, { width });

  h('Учасники голосування (на зборах, у режимі відеоконференції або письмовому опитуванні)');
  const participants = m.participants.filter((p) => (r.votes.get(p.id)?.size ?? 0) > 0);
  if (participants.length === 0) doc.text('Голосів немає.');
  participants.forEach((p, i) => {
    const person = r.people.get(p.id)!;
    const ballots = m.ballots.filter((b) => b.ballot.participantId === p.id).map((b) => b.ballot);
    const units = person.units.map((u) => `${unitLabel(u)} (${u.area === null ? 'площа не вказана' : m2(u.area)}, частка ${u.share})`).join('; ');
    doc.font('bold').text(`${i + 1}. ${p.name}`, { width, continued: false });
    doc.font('regular').text(`Приміщення: ${units}. Площа співвласника: ${m2(person.area)} (${pc(person.weightPercent)}).`, { width, indent: 14 });
    doc.text(`Документ про право власності: ${p.ownershipDocument || 'не зазначено'}.`, { width, indent: 14 });
    for (const b of ballots) {
      const signature = b.signatureProvider
        ? `підписано КЕП (${b.signatureProvider}, підписувач: ${b.signatureSigner ?? '—'})`
        : 'без кваліфікованого електронного підпису';
      const how =
        b.channel === 'paper'
          ? `паперовий листок опитування від ${formatUa(b.ballotDate)}`
          : `ЕЛЕКТРОННИЙ бюлетень від ${formatUa(b.ballotDate)}; ` +
            `ідентифікація: ${IDENT[b.identification ?? 'sms_code']} ${b.identifiedTarget ?? ''}; ${signature}`;
      const rep = b.representative ? `; представник: ${b.representative}, документ про повноваження: ${b.representativeDocument || 'не зазначено'}` : '';
      doc.text(`Голосування: ${how}${rep}.`, { width, indent: 14 });
    }
  });

  h('Підсумки голосування щодо кожного питання');
  for (const q of r.questions) {
    const t = q.tally;
    doc.font('bold').text(`Питання ${q.position}. ${q.title}`, { width });
    doc.font('regular');
    doc.text(`Поріг: ${q.thresholdText}${t.headcount ? ' (за кількістю співвласників)' : ''}.`, { width, indent: 14 });
    doc.text(`«За»: ${t.for.count} співвласн., ${m2(t.for.area)}, ${pc(t.for.percent)} голосів.`, { width, indent: 14 });
    doc.text(`«Проти»: ${t.against.count} співвласн., ${m2(t.against.area)}, ${pc(t.against.percent)} голосів.`, { width, indent: 14 });
    doc.text(`Не голосували: ${t.outstanding.count} співвласн., ${m2(t.outstanding.area)}, ${pc(t.outstanding.percent)} голосів.`, { width, indent: 14 });
    doc.font('bold').text(`Рішення: ${STATUS_WORDS[t.status]}.`, { width, indent: 14 }).font('regular').moveDown(0.4);
  }

  doc.moveDown(1.2);
  doc.text('Голова зборів ______________________ ' + (v.chair || '(прізвище, ініціали)'), { width });
  doc.moveDown(0.8);
  doc
    .fontSize(8)
    .fillColor('#555')
    .text(
      `Протокол сформовано ${new Date().toLocaleString('uk-UA', { timeZone: 'Europe/Kyiv' })}. Електронні бюлетені позначено окремо із ` +
        `зазначенням способу ідентифікації співвласника; бюлетень без кваліфікованого електронного підпису не відповідає вимозі ч. 19 ` +
        `ст. 10 Закону № 417-VIII${v.signedOnly ? ' і на цих зборах не зараховується' : ''}.`,
      { width },
    );
  doc.end();
  return done;
}
