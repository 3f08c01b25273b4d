import type { Transporter } from 'nodemailer';
import type { AppConfig } from '../config.ts';
import type { Transports } from './delivery.ts';
import { smsGatewayTransport } from './sms.ts';

/** The transports the configuration names: SMTP_URL for e-mail, SMS_GATEWAY_URL for SMS. */
export function configuredTransports(config: Pick<AppConfig, 'smtpUrl' | 'smsGateway' | 'supportEmail'>): Transports {
  const smtpUrl = config.smtpUrl;
  // The mail library is loaded with the first message, not at every start.
  let mail: Promise<Transporter> | undefined;
  const transporter = (url: string) => (mail ??= import('nodemailer').then((m) => m.default.createTransport(url)));
  return {
    email: smtpUrl
      ? {
          async send({ to, subject, text, replyTo }) {
            await (await transporter(smtpUrl)).sendMail({ from: config.supportEmail, to, replyTo, subject, text });
          },
        }
      : undefined,
    sms: config.smsGateway && smsGatewayTransport(config.smsGateway),
  };
}
