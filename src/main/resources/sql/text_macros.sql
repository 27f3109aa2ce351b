-- Functions every workspace has for text that holds structure: temporary macros, created on the workspace's
-- connection before the first statement that names one.
-- Statements are separated by a line holding only ';'. docs/beyond-sql.md describes them; TextMacrosTest tests them.

-- text_list('[''a'', "b", 3]') = ['a', 'b', '3']: the items of a list written as a Python literal or JSON (flat lists).
CREATE OR REPLACE TEMP MACRO text_list(s) AS
  list_transform(
    regexp_extract_all(CAST(s AS VARCHAR), '''(?:[^''\\]|\\.)*''|"(?:[^"\\]|\\.)*"|[^\[\]\(\)\{\},\s''"][^,\]\)\}]*'),
    lambda x: CASE WHEN left(x, 1) IN ('''', '"') THEN x[2:-2] ELSE trim(x) END)
;
-- bare_id(' #A12 ') = 'A12': an id without surrounding spaces, quotes or a leading '#'.
CREATE OR REPLACE TEMP MACRO bare_id(s) AS
  regexp_replace(CAST(s AS VARCHAR), '^[\s#''"]+|[\s''"]+$', '', 'g')
;
CREATE OR REPLACE TEMP MACRO sift_date_words(s) AS
  list_filter(string_split(regexp_replace(regexp_replace(regexp_replace(lower(CAST(s AS VARCHAR)),
    '(twenty|thirty)[ -]+', '\1_', 'g'), '([0-9]+)(st|nd|rd|th)\b', '\1', 'g'), '[^a-z0-9_]+', ' ', 'g'), ' '),
    lambda w: w <> '' AND w NOT IN ('the', 'of', 'on', 'day'))
;
CREATE OR REPLACE TEMP MACRO sift_ordinal(words) AS
  list_filter(list_transform(words, lambda w: list_position(['first', 'second', 'third', 'fourth', 'fifth', 'sixth',
    'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth',
    'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth', 'twentieth', 'twenty_first', 'twenty_second',
    'twenty_third', 'twenty_fourth', 'twenty_fifth', 'twenty_sixth', 'twenty_seventh', 'twenty_eighth',
    'twenty_ninth', 'thirtieth', 'thirty_first'], w)), lambda p: p > 0)[1]
;
CREATE OR REPLACE TEMP MACRO sift_month(words) AS
  list_filter(list_transform(words, lambda w: coalesce(nullif(list_position(['january', 'february', 'march', 'april',
    'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'], w), 0),
    list_position(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
    CASE WHEN w = 'sept' THEN 'sep' ELSE w END))), lambda p: p > 0)[1]
;
CREATE OR REPLACE TEMP MACRO sift_word_date(words, digits) AS
  CAST(try_strptime(printf('%d-%d-%d',
    CASE WHEN len(list_filter(digits, lambda d: length(d) = 4)) > 0
         THEN CAST(list_filter(digits, lambda d: length(d) = 4)[1] AS INTEGER)
         ELSE (CASE WHEN CAST(list_filter(digits, lambda d: length(d) <= 2)[
                  CASE WHEN sift_ordinal(words) IS NULL THEN 2 ELSE 1 END] AS INTEGER) < 70 THEN 2000 ELSE 1900 END)
              + CAST(list_filter(digits, lambda d: length(d) <= 2)[CASE WHEN sift_ordinal(words) IS NULL THEN 2 ELSE 1 END]
                AS INTEGER) END,
    sift_month(words),
    coalesce(sift_ordinal(words), CAST(list_filter(digits, lambda d: length(d) <= 2)[1] AS INTEGER))),
    '%Y-%m-%d') AS DATE)
;
-- word_date('the fifth of March, 2023') = word_date('March 5th 2023') = word_date('5 Mar 23') = DATE '2023-03-05';
-- ISO dates pass through; NULL when no day, month and year can be read.
CREATE OR REPLACE TEMP MACRO word_date(s) AS
  coalesce(try_cast(trim(CAST(s AS VARCHAR)) AS DATE),
    sift_word_date(sift_date_words(s), list_filter(sift_date_words(s), lambda w: regexp_matches(w, '^[0-9]{1,4}$'))))
;
