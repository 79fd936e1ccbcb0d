import { looseContractions as loose, normalizeText, splitSentences } from '../text/normalise';

/**
 * Taking leave, by the shape of the turn: a farewell formula ("see you then", "drive safe",
 * "night!"), winding the visit up ("I'll get out of your hair", "we're gonna call it a night",
 * "time for you to go"), or thanks for the visit that closes the turn. Not a preface to one more
 * question ("before I go, ...") and not thanks for being let in at the start of a visit.
 */
const FAREWELL = loose(
  /\b(bye|byee+|goodbye|good bye|bye bye|buh bye|see (you|ya|u|yall|y all)( (all|both|guys|folks|two))?( (then|later|soon|around|next|on|at|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tmrw|mon|tues|wed|thurs|thu|fri|sat|sun|the \w+|in \w+))|see (you|ya|u) (then|later|soon)|take care|drive safe(ly)?|safe travels|get home safe|have a (good|great|nice|blessed|wonderful|lovely|good rest of your|great rest of your) \w+|enjoy (the rest of )?your (day|evening|night|weekend|afternoon|dinner|game|trip)|good ?night|nighty night|catch (you|ya|u) (later|on the flip side|next time|around)|talk (to you |to ya |to u )?(soon|later|then|tomorrow)|ttyl|later (then|gator)|peace( out)?|cheers|ciao|cheerio|so long|farewell|be well|be good|go with god|god bless( you)?|till next time|until next time|you have yourself a (good|great|nice|blessed) \w+|have a good one|have a blessed (one|day)|stay (warm|cool|dry|safe)|mind how you go|toodles|adios|hasta luego)\b/,
);
const WRAP_UP = loose(
  /\b(i ll|ill|i will|i m gonna|im gonna|i m going to|im going to|let me|i should|i d better|id better|i better|i gotta|i got to|i have to|i need to|we should|we d better|we gotta|we need to|time (for me )?to) (get going|be going|be on my way|head out|hit the road|take off|run(?= *$| now| along)|go(?= *$| now| home| then)|scoot|get out of (your|ya) (hair|way)|leave you (to it|be|alone|in peace)|let you (go|get back|get on)|see myself out|show myself out|wrap (it|this|things) up|get out of here|skedaddle)\b|\b(i m|im|i am) (out(?= *$| now| of here)|outta here|off(?= *$| now)|heading out|on my way|gone(?= *$))|\b(call|calling) it a (night|day)\b|\b(wrap|wrapping) (it|this|things) up\b|\b(taken|taking) up (enough|too much) of your\b|\b(that s|thats|that is) (all|everything) (i need|for (today|now|tonight))\b|\btime (for you )?to (go|leave)\b|\b(go|get) (now|on home|home)\b|\b(please|you should|you can|you need to|i think you should|i d like you to|id like you to) (go|leave)\b|\bget (off|out of) my (porch|house|property|yard|lawn|driveway)\b|\b(i ll|ill|we ll|well) (see|show|walk) you (out|to the door)\b|\bwe re (done|finished) here\b|\bthis (conversation|visit) is over\b|\bthe door s (right )?(there|that way)\b/,
);
const THANKS_FOR_VISIT = loose(
  /\b(thanks|thank you|thank ya|thx|appreciate (it|you|that))\b.{0,40}\b(coming (out|by|over)?|stopping by|your time|the time|the visit|your help|the help|everything|the info|the information|being (so )?(honest|patient|straight)|the honesty|the coffee|the tea|the cookies|the tour|having me|having us|letting me|letting us)\b/,
);
const BEFORE_GOING = loose(
  /\b(before (i|you|we) (go|leave|head out|take off|run)|one (more|last) (thing|question)|oh wait|wait before)\b/,
);
const STILL_AT_DOOR = loose(
  /\b(hi|hello|hey|good (morning|afternoon|evening)|nice to meet|pleasure to meet|you must be|i m \w+ (with|from)|im \w+ (with|from))\b/,
);

/**
 * "Thanks so much for your time, Linda, good afternoon": a salutation closing thanks takes leave;
 * "thanks for having me, good afternoon" at the door does not.
 */
const CLOSING_SALUTATION = loose(
  /^(?!.*\b(having (me|us)|letting (me|us) in|nice to meet|pleasure to meet)\b).*\b(thanks|thank you|thank ya|thx|appreciate)\b.{0,80}\bgood (morning|afternoon|evening|day|night)( to you)?( \w+)?$/,
);

const PARTING =
  /^((ok|okay|k|alright|right|cool|thanks|thx|cheers) )*(later|laters|peace|peace out|cheers|ta ra|tara|ciao|cheerio|take it easy|see ya|toodles|ttyl|talk soon)( \w+)?$/;

/** A farewell formula said outright ("bye", "see you then", "take care"): leave-taking beyond doubt. */
export function saysFarewell(text: string): boolean {
  const all = normalizeText(text);
  if (CLOSING_SALUTATION.test(all)) return true;
  if (/\?\s*$/.test(text.trim()) && BEFORE_GOING.test(all)) return false;
  return (
    (/\b(bye|goodbye|see (you|ya|u) (then|later|soon|on \w+|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)|take care|drive safe|good ?night|have a good one|catch (you|ya|u) (later|on the flip side|next time)|talk soon|(you )?have yourself a (good|great|nice|blessed) \w+)\b/.test(
      all,
    ) ||
      WRAP_UP.test(all) ||
      // "ok thx dave, later", "cheers, ta-ra": a parting word said on its own at the end of the turn.
      [/[,.!?;]/, /[.!?;]/].some((split) =>
        PARTING.test(
          normalizeText(
            text
              .split(split)
              .filter((x) => x.trim())
              .pop() ?? '',
          ),
        ),
      )) &&
    !STILL_AT_DOOR.test(all)
  );
}

/** Whether one utterance takes leave. */
export function takesLeave(text: string): boolean {
  const sentences = splitSentences(text);
  const norms = (sentences.length ? sentences : [text]).map(normalizeText);
  const all = normalizeText(text);
  // "Before you go, does the permit cost extra?": the visit goes on.
  const lastAsks = /\?\s*$/.test(text.trim()) && BEFORE_GOING.test(all);
  if (lastAsks) return false;
  if (CLOSING_SALUTATION.test(all)) return true;
  const greets = STILL_AT_DOOR.test(all);
  if (norms.some((n) => FAREWELL.test(n) && !/\bhave a (look|seat|cup|minute|second|question)\b/.test(n)))
    return !greets || /\b(bye|see you|take care|good ?night)\b/.test(all);
  if (norms.some((n) => WRAP_UP.test(n))) return true;
  // Thanks for the visit closing the turn (not "thanks for having me" at the door).
  const last = norms[norms.length - 1] ?? all;
  return (
    THANKS_FOR_VISIT.test(last) && !greets && !/\b(having|letting) (me|us) (in|out|over|come)?\b/.test(last)
  );
}
