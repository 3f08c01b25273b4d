import { sql } from 'drizzle-orm';
import type { VotingParticipant } from '../../../contract/voting.ts';
import { fixedStatement } from '../../db/index.ts';
import { houses, votings } from '../../db/schema.ts';
import { sessionSqlFixed } from '../../lib/auth.ts';
import { downloadName } from '../../lib/files.ts';
import { isoSql } from '../../lib/jsonSql.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';

/**
 * A meeting's participants list (`GET /voting/:id/residents`) in one statement: the meeting as far
 * as the user may see it, every co-owner's record as the screen shows it, and the session check
 * when the request started with the session this process knew (server/lib/auth.ts).
 *
 * The list shows areas and weights rounded to hundredths (sent as plain numbers); they are computed here in numeric with
 * 20 decimals, which rounds as the exact fractions of `meetingPeople` do (docs/voting-rules.md,
 * §3.7; tests/api/voting-participants.test.ts compares the two on generated
 * meetings). Whether a question is adopted is never decided here: the tallies stay exact (tally.ts).
 */
/** A call's values: the user's organization and complexes, the meeting, the list's filters and page. */
export interface ParticipantsValues extends Record<string, unknown> {
  org: number;
  id: number;
  complexes: number[];
  session_hash?: string;
  /** not_voted, partial or voted; null for every status */
  status: string | null;
  /** the search in lower case ('' for none), and its digits (a phone's part) */
  search: string;
  digits: string;
  limit: number;
  offset: number;
}

function statementOf(everyComplex: boolean, toConfirm: boolean) {
  const org = sql.placeholder('org');
  const id = sql.placeholder('id');
  const [status, search, digits, limit, offset] = ['status', 'search', 'digits', 'limit', 'offset'].map((k) => sql.placeholder(k));
  const visible = everyComplex
    ? sql`${votings.organizationId} = ${org} and ${votings.id} = ${id}`
    : sql`${votings.organizationId} = ${org} and ${votings.id} = ${id} and ${votings.houseId} in (
        select ${houses.id} from ${houses} where ${houses.organizationId} = ${org} and ${houses.complexId} = any(${sql.placeholder('complexes')}::int[]))`;
  return fixedStatement<ParticipantsValues>(
    () => sql`with v as (select ${votings.id} as id from ${votings} where ${visible}),
      total as (select coalesce(sum(area_centi), 0)::numeric(40, 20) as area from voting_units where voting_id = (select id from v)),
      questions as (select count(*)::int as n from voting_questions where voting_id = (select id from v)),
      own as (
        select o.id, o.participant_id, u.number, u.type, u.area_centi, o.share_numerator is not null as shared,
          case when o.share_numerator is not null then o.share_numerator else 1 end as num,
          case when o.share_numerator is not null then o.share_denominator
            else count(*) filter (where o.share_numerator is null) over (partition by o.unit_id) end as den
        from voting_ownerships o join voting_units u on u.id = o.unit_id
        where o.voting_id = (select id from v)),
      areas as materialized (
        select o.participant_id, sum(o.area_centi::numeric(40, 20) * o.num / o.den) as area
        from own o where o.area_centi is not null group by o.participant_id),
      people as (
        select p.id, p.member_id, p.name, p.ownership_document, m.phone, m.email, ar.area,
          (select count(distinct a.question_id)::int from voting_answers a where a.voting_id = p.voting_id and a.participant_id = p.id) as answered
        from voting_participants p join members m on m.id = p.member_id left join areas ar on ar.participant_id = p.id
        where p.voting_id = (select id from v)),
      statused as (
        select pp.*, case when pp.answered = 0 then 'not_voted' when pp.answered >= (select n from questions) then 'voted' else 'partial' end as status
        from people pp),
      listed as (
        select st.*, row_number() over (order by ${ukrainianSortKey(sql`st.name`)}, st.id) as position
        from statused st
        where (${status}::text is null or st.status = ${status}::text)
          and (${search}::text = '' or strpos(lower(st.name), ${search}::text) > 0 or strpos(coalesce(st.email, ''), ${search}::text) > 0
            or (${digits}::text <> '' and strpos(coalesce(st.phone, ''), ${digits}::text) > 0)
            or st.id in (select o.participant_id from own o where lower(o.number) = ${search}::text))),
      page as (select * from listed where position > ${offset}::bigint and position <= ${offset}::bigint + ${limit}::int),
      page_units as materialized (
        select o.participant_id, json_agg(json_build_object(
              'number', o.number, 'type', o.type, 'area', (o.area_centi / 100.0)::float8,
              'share', case when o.shared then (case when o.num = o.den then '1' else o.num || '/' || o.den end) else '1/' || o.den end,
              'owned_area', case when o.area_centi is null then 0 else (round(o.area_centi::numeric(40, 20) * o.num / o.den) / 100)::float8 end)
            order by o.id) as units
        from own o where o.participant_id in (select id from page) group by o.participant_id)
      select (select json_agg(json_build_object(
          'id', pp.member_id, 'name', pp.name, 'phone', pp.phone, 'email', pp.email,
          'units', coalesce(pu.units, '[]'),
          'area', coalesce((round(pp.area) / 100)::float8, 0),
          'weight_percent', case when pp.area is null or (select area from total) = 0 then 0
            else (round(pp.area * 10000 / (select area from total)) / 100)::float8 end,
          'ownership_document', pp.ownership_document,
          'status', pp.status,
          'answers', (select coalesce(json_object_agg(a.question_id, a.answer order by a.id), '{}') from voting_answers a
            where a.voting_id = (select id from v) and a.participant_id = pp.id),
          'ballots', (select coalesce(json_agg(json_build_object(
              'id', b.id, 'channel', b.channel, 'ballot_date', b.ballot_date::text, 'identification', b.identification,
              'identified_target', b.identified_target, 'signed', b.signature_provider is not null,
              'signature_provider', b.signature_provider, 'signature_signer', b.signature_signer, 'counted', true,
              'sheet', case when b.sheet_media_id is null or md.original_name is null or md.original_name = '' then null
                else json_build_object('id', b.sheet_media_id, 'name', md.original_name, 'mime', md.mime,
                  'url', '/api/admin/voting/' || b.voting_id || '/ballots/' || b.id || '/sheet') end,
              'representative', b.representative, 'representative_document', b.representative_document,
              'answers', (select coalesce(json_object_agg(a.question_id, a.answer order by a.id), '{}') from voting_answers a
                where a.participant_id = b.participant_id and a.ballot_id = b.id),
              'created_at', ${isoSql(sql`b.created_at`)})
            order by b.created_at, b.id), '[]')
            from voting_ballots b left join media md on md.id = b.sheet_media_id
            where b.voting_id = (select id from v) and b.participant_id = pp.id))
        order by pp.position) from page pp left join page_units pu on pu.participant_id = pp.id)::text as data,
        (select count(*)::int from listed) as n,
        (select json_build_object('not_voted', count(*) filter (where status = 'not_voted'), 'partial', count(*) filter (where status = 'partial'),
          'voted', count(*) filter (where status = 'voted')) from statused)::text as summary,
        exists (select 1 from page pp join voting_ballots b on b.participant_id = pp.id where b.sheet_media_id is not null) as sheets,
        exists (select 1 from v) as found,
        ${sessionSqlFixed(toConfirm)} as session`,
  );
}

const statements = new Map<string, ReturnType<typeof statementOf>>();
/** The statement for a kind of user (every complex or some) and session (to confirm or not), rendered once. */
export function participantsStatement(everyComplex: boolean, toConfirm: boolean) {
  const key = `${everyComplex}:${toConfirm}`;
  let s = statements.get(key);
  if (!s) statements.set(key, (s = statementOf(everyComplex, toConfirm)));
  return s;
}

/** The page's records as the statement wrote them; parsed only when a ballot's sheet needs its download name. */
export function pageJson(data: string | null, sheets: boolean): string {
  if (data === null) return '[]';
  if (!sheets) return data;
  const list = JSON.parse(data) as VotingParticipant[];
  for (const p of list) for (const b of p.ballots) if (b.sheet) b.sheet.name = downloadName(b.sheet.name, b.sheet.mime);
  return JSON.stringify(list);
}
