import { createHash } from 'node:crypto';

/**
 * The one place a qualified electronic signature provider plugs in (Law 417, Art. 10(19):
 * an electronic ballot is signed with a signature based on a qualified certificate).
 *
 * The co-owner's page asks the server for the ballot document (`ballotDocument`), signs it with
 * the provider's own client tools, and sends the detached signature with the ballot. The server
 * hands the document and the signature to `verify`; only a valid signature makes the ballot
 * "signed". No provider is configured out of the box, so ballots cast through the link are
 * marked electronic with the identification method (a one-time code) and are not signed — and
 * a meeting set to count only signed or paper ballots refuses them. docs/voting-rules.md §3.4.
 */
export interface SignatureProvider {
  /** stable id stored with the ballot: «diia», «kep-file», … */
  readonly id: string;
  /** shown to the co-owner: «Дія.Підпис» */
  readonly title: string;
  /**
   * Checks a detached signature (`signature`, as the provider's client produced it) over
   * `document`. Resolves with the signer as the certificate names them, or `valid: false`.
   */
  verify(document: string, signature: string): Promise<SignatureCheck>;
}

export type SignatureCheck = { valid: true; signer: string; signedAt: Date } | { valid: false; reason: string };

export interface BallotDocumentInput {
  votingId: number;
  title: string;
  address: string;
  meetingDate: string;
  voter: string;
  units: string[];
  ballotDate: string;
  questions: { id: number; position: number; title: string }[];
  answers: Record<string, 'for' | 'against'>;
}

const WORD = { for: 'ЗА', against: 'ПРОТИ' } as const;

/** The ballot as the text that is signed: every field of Law 417, Art. 10(22) that the voter confirms. */
export function ballotDocument(b: BallotDocumentInput): { text: string; sha256: string } {
  const lines = [
    `Листок опитування. Загальні збори співвласників № ${b.votingId}: ${b.title}`,
    `Будинок: ${b.address}`,
    `Дата зборів: ${b.meetingDate}`,
    `Дата голосування: ${b.ballotDate}`,
    `Співвласник: ${b.voter}`,
    `Приміщення: ${b.units.join('; ')}`,
    ...b.questions.filter((q) => b.answers[String(q.id)]).map((q) => `${q.position}. ${q.title} — ${WORD[b.answers[String(q.id)]]}`),
  ];
  const text = lines.join('\n');
  return { text, sha256: createHash('sha256').update(text).digest('hex') };
}
