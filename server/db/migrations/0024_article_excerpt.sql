ALTER TABLE "articles" ADD COLUMN "excerpt" text GENERATED ALWAYS AS (case when length(btrim(regexp_replace(replace(replace(replace(replace(replace(replace(
  regexp_replace(regexp_replace(body, '</?(p|h[1-6]|li|ul|ol|br|div|blockquote|pre|table|tr|td|th|hr)(\s[^>]*)?/?>', ' ', 'gi'),
  '<[^>]*>', '', 'g'), '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'),
  '[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', 'g'))) > 200 then left(btrim(regexp_replace(replace(replace(replace(replace(replace(replace(
  regexp_replace(regexp_replace(body, '</?(p|h[1-6]|li|ul|ol|br|div|blockquote|pre|table|tr|td|th|hr)(\s[^>]*)?/?>', ' ', 'gi'),
  '<[^>]*>', '', 'g'), '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'),
  '[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', 'g')), 199) || '…' else btrim(regexp_replace(replace(replace(replace(replace(replace(replace(
  regexp_replace(regexp_replace(body, '</?(p|h[1-6]|li|ul|ol|br|div|blockquote|pre|table|tr|td|th|hr)(\s[^>]*)?/?>', ' ', 'gi'),
  '<[^>]*>', '', 'g'), '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'),
  '[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', 'g')) end) STORED NOT NULL;