import type { Identifier } from 'react-admin';
import type { Rules } from '../contract/permissions';

/** `GET /user` data. */
export interface CurrentUser {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  reset_token: string | null;
  tutorial_completed: boolean;
  rules: Rules;
  complexes: { id: number; name: string }[];
  two_factor: 'phone' | 'email' | null;
  is_admin: boolean;
  /** SMS codes can be sent (an SMS gateway is configured): phone confirmation and SMS sign-in are offered only then */
  sms_available: boolean;
}

export interface Complex {
  id: Identifier;
  name: string;
  city: string;
  address: string;
  description: string;
  created_at: string;
  updated_at: string;
  /** Only in the detail answer (GET /complexes/{id}). */
  counts?: Record<'houses' | 'apartment' | 'parking' | 'storage' | 'commercial' | 'residents', number>;
}
