import type { KeepStateOptions } from 'react-hook-form';

/**
 * How a form takes its record again when the record reloads in the background (a list refresh
 * puts a fresh copy in the cache, a refetch on focus): the fields the user has changed keep what
 * was typed, the others show the fresh values. One shared object, because react-admin resets the
 * form again whenever this option's identity changes.
 */
export const KEEP_TYPED_VALUES: KeepStateOptions = Object.freeze({ keepDirtyValues: true });
