import { looseContractions as loose, normalizeText } from '../text/normalise';

/**
 * What a visitor asks for or offers in passing, which the homeowner answers plainly: the
 * bathroom, where to park, a gate code, coming in, a photo, leaving something behind (samples, a
 * card, a quote), sending something later, calling the spouse now. Also a question about what was
 * agreed ("what day did we land on?").
 */
export type RequestKind =
  | 'restroom'
  | 'parking'
  | 'gate'
  | 'enter'
  | 'photo'
  | 'leave-item'
  | 'send-item'
  | 'call-spouse'
  | 'agreed-day'
  | 'confirm-booking';

const KINDS: [RequestKind, RegExp][] = [
  [
    'agreed-day',
    loose(
      /\b(what|which) (day|time|date)( and (time|day))? (are|were) we (saying|going with|doing)|\bread (me |it )?back what we (ve |have )?(said|agreed|settled)|\b(what|which) (day|time|date)( and (time|day))? (did|have|had) we (land|settle|agree|decide|say|pick)|\bwhat did we (land on|settle on|agree on|say|decide)\b|\bremind me (of )?(the|what) (day|time|date)\b|\bsay (the (day|time|date)|it) back\b|\b(did|have) (you|ya|u) (just )?(say|said) (yes|yeah|ok|okay)\b|\b(is|was) that a (yes|yeah)\b|\b(are|r) we (on|good|set|booked) for\b|\bconfirm(ing)? (the )?(day|time|date)( (and )?(day|time|date))? (we|you) (said|agreed|settled|picked|set|went with)\b|\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)\b.{0,60}\b(which|what) one (did|have|had) we (say|land on|settle on|agree on|pick|go with)\b/,
    ),
  ],
  [
    // "k ill text the confirmation, that ok?": sending word of a booking, which presumes one.
    'confirm-booking',
    loose(
      /\b(email|send|text|mail|shoot|forward|put|get)\b.{0,30}\b(the |a |your |ur )?(confirmation|booking confirmation|appointment confirmation|calendar invite|appointment details|booking details)\b/,
    ),
  ],
  [
    'restroom',
    loose(
      /\b(pop|nip|run|dash|go) (to|into|in to) (your|the|ur) (bathroom|restroom|washroom|toilet|loo|powder room)\b|\b(use|used|using|borrow) (your|the|ur) (bathroom|restroom|washroom|toilet|loo|powder room|facilities)\b|\bwhere s (your|the) (bathroom|restroom|washroom|toilet|loo)\b|\bwheres (your|the) (bathroom|restroom|toilet)\b/,
    ),
  ],
  [
    'parking',
    loose(
      /\b(where|wheres|somewhere|ok|okay|alright|fine|room|space|spot) (\w+ ){0,5}(park|parking|leave the (truck|van|car)|put the (truck|van|car))\b|\b(park|parking) (\w+ ){0,5}(drive|driveway|street|road|van|truck|lads)\b|\bstreet parking\b|\b(is|s) the (drive|driveway) (ok|okay|alright|fine)\b|\bleave (the|my) (truck|van|car)\b|\bblocking (you|ya) in\b/,
    ),
  ],
  [
    'gate',
    loose(
      /\b(gate|door|lockbox|alarm) (code|key|combination|combo)\b|\bgate\b.{0,25}\b(code|combination|combo|padlock|lock)\b|\bcode (for|to) the (gate|side gate|door|lockbox)\b/,
    ),
  ],
  [
    'enter',
    loose(
      /\b(step|come|pop|hop) (in|inside)\b.{0,30}\b(mind|ok|okay|alright|could|can|may)\b|\b(mind|ok|okay|alright|could|can|may) (\w+ ){0,3}(step|come|pop) (in|inside)\b/,
    ),
  ],
  [
    'photo',
    loose(
      /\b(can|could|may|mind if|ok if|okay if|alright if|would you mind if|do you mind if|is it ok if|let me|i ll just|i m just going to) (i |we )?(\w+ ){0,2}(take|took|taking|grab|get|snap) (a |some |a few |a couple of |a couple |couple )?(quick )?(photos?|pictures?|pics?|shots?)\b|\b(with )?(me|us) (\w+ ){0,8}(taking|snapping|grabbing) (a |some |a few |a couple of |a couple |couple )?(quick )?(photos?|pictures?|pics?|shots?)\b/,
    ),
  ],
  [
    'call-spouse',
    loose(
      /\b(call|ring|phone|dial|facetime|get) (\w+ ){0,2}(on (the )?(speaker|phone|speakerphone)|now|quickly|real quick)\b|\b(give|gave) (him|her|\w+) a (quick )?(ring|call|bell)\b/,
    ),
  ],
  [
    'leave-item',
    loose(
      /\b(written|write|writing) (\w+ ){0,2}(out|up|down)\b.{0,40}\b(references?|numbers?|names?|details)\b|\b(references?|numbers?|names?|details) (\w+ ){0,2}(written|write|writing) (out|up|down)\b|\b(leave|left|leaving|drop off|drop|dropped|dropping|leave behind|leave you|leave with you)\b.{0,40}\b(samples?|boards?|swatch(es)?|brochure|card|quote|quote sheet|references?|estimate|paperwork|info|information|pamphlet|flyer|catalog(ue)?|write ?up|summary)\b|\b(boards?|samples?|swatch(es)?) (\w+ ){0,2}left (here|with you)\b/,
    ),
  ],
  [
    'send-item',
    loose(
      /\b(email|send|text|mail|post|shoot|forward|wrote|write)\b.{0,40}\b(quote|estimate|photos?|pictures?|pics?|write ?up|summary|numbers?|proposal|details|confirmation|brochure|terms|agreement|contract|paperwork|specs|info|information|references|it|them)\b/,
    ),
  ],
];

/** The kind of passing request or offer a line makes, if any (the first that fits, as listed). */
export function requestKind(text: string): RequestKind | null {
  const n = normalizeText(text);
  for (const [kind, re] of KINDS) if (re.test(n)) return kind;
  return null;
}
