import { fillTemplate, firstSentence, lowerFirst } from '../../understanding/text/lines';
import type { Stage } from '../../../core/stages';
import type { ObjectionKind, PersonaFacts, Topic } from './personas';

/**
 * Lines every homeowner needs in some form (small talk, goodbyes, deflections, restatements),
 * worded per temperament. Persona-specific lines live in personas.ts.
 */
export type Style = 'friendly' | 'hurried' | 'wary' | 'sceptical';

export function styleOf(facts: PersonaFacts): Style {
  const t = facts.temperament;
  if (t.demandsProof) return 'wary';
  if (t.ramblingWords < 50) return 'hurried';
  if (t.chatty) return 'friendly';
  return 'sceptical';
}

/** What the homeowner calls the job ("the roof"), for lines that steer back to it. */
export const THING: Record<Stage, string> = {
  Windows: 'the windows',
  HVAC: 'the furnace',
  Roofing: 'the roof',
  Flooring: 'the floors',
  General: 'the house',
};

/** The fact behind each topic, in a short form for restating it. */
export function shortFact(topic: Topic, f: PersonaFacts): string {
  const h = f.household;
  switch (topic) {
    case 'home':
      return `the house is ${h.homeAgeYears} years old`;
    case 'problem':
      return h.problem;
    case 'budget':
      return `the budget is ${h.budget}`;
    case 'timeline':
      return `we want it ${h.timeline}`;
    case 'decision':
      return `it's ${h.decider}`;
    case 'quotes':
      return `we have ${h.competingQuote}`;
    case 'priorities': {
      const need = f.needs.find((n) => n.topic === 'priorities');
      const first = need?.reveal[0] ?? '';
      return lowerFirst(firstSentence(first));
    }
    case 'product':
      return `we'd want ${h.wishes}`;
  }
}

export { lowerFirst };

/** Ways to say a fact again: never the same sentence twice. */
export const RESTATE: Record<Style, string[]> = {
  friendly: [
    'Like I said, {fact}.',
    'As I mentioned, {fact}.',
    'Oh, {fact}, like I was saying.',
    'Same as before, {fact}.',
    'Just to say it again, {fact}.',
    'Yep, {fact}.',
  ],
  hurried: [
    'I already told you. {Fact}.',
    'Again: {fact}.',
    'Like I said, {fact}.',
    'Same answer. {Fact}.',
    'Write it down this time. {Fact}.',
    'For the last time, {fact}.',
  ],
  wary: [
    'I told you already. {Fact}.',
    'Like I said, {fact}.',
    'Same as a minute ago, {fact}.',
    'You asked me that. {Fact}.',
    'Are you listening? {Fact}.',
    'Again, {fact}.',
  ],
  sceptical: [
    'Like I said, {fact}.',
    'As I mentioned, {fact}.',
    'I said that already, {fact}.',
    'Again, {fact}.',
    'To repeat myself, {fact}.',
    'Same as before, {fact}.',
  ],
};

/** A topic named back, so a deflection is still an answer to what was asked. */
export const ECHO: Record<Topic, string[]> = {
  home: ['How old the house is?', 'The age of the place?'],
  problem: ["What's wrong with it?", 'The problem?'],
  budget: ['My budget?', 'What we want to spend?'],
  timeline: ['When we want it done?', 'The timing?'],
  decision: ['Who decides?', 'Who makes the decision?'],
  quotes: ['Other quotes?', 'Who else we have talked to?'],
  priorities: ['What matters to me?', 'What is important to us?'],
  product: ['What I want put in?', 'What kind we want?'],
};

/** When trust is too low to reveal a fact. */
export const TOO_SOON: Record<Style, string[]> = {
  friendly: [
    "Oh, let's get to that once I know a bit more about you.",
    "Ha, I'll tell you once I've heard your side.",
  ],
  hurried: ["Tell me what you'd do first, then we'll talk.", 'You first. What are you offering?'],
  wary: [
    "I'd rather hear what you'd do first.",
    "That's for when I know who you are.",
    'Not until I see some proof.',
  ],
  sceptical: ["I'd rather hear what you'd do first.", "I'll keep that to myself until I hear your offer."],
};

export const SMALL_TALK: Record<Style, string[]> = {
  friendly: [
    "Ha, can't complain, can't complain!",
    'Oh, you bet. We love it around here.',
    'Ha, {spouse} would love to hear about that.',
    "Isn't it something? Days like this I like to be outside.",
    'Oh sure, sure. That takes me back.',
  ],
  hurried: [
    "Look, I don't have time for chit-chat.",
    "Sure. Let's skip the small talk.",
    "I've got ten minutes, not a social call.",
    'Yeah, yeah. Moving on.',
  ],
  wary: [
    "Let's skip the small talk.",
    "Buttering me up won't help.",
    'I know that trick. Be nice first, then the pitch.',
    "Hm. You're friendly. The last guy was friendly too.",
  ],
  sceptical: ['Fine, thanks.', "Mm. It's alright.", 'Sure. Anyway.', 'I suppose so.'],
};

export const STEER: Record<Style, string[]> = {
  friendly: [
    'So what brings you by?',
    'Anyway, what did you want to tell me about {thing}?',
    'But you came about {thing}, right?',
  ],
  hurried: ['What are you offering?', 'What about {thing}?', "What's the bottom line?", 'Get to the point.'],
  wary: ['Who are you with?', 'What do you actually want?', 'So what about {thing}?'],
  sceptical: ['So what is this about?', 'What about {thing}?', 'What are you actually offering?'],
};

/** Asked how to be reached ("call or email, which is better?"): the owner's preference. */
export const CONTACT: Record<Style, string[]> = {
  friendly: [
    "Email's best, I check it every morning. Or text, either's fine.",
    'Text me, I always have my phone on me.',
  ],
  hurried: ['Text. Quicker.', 'Email. I read it between calls.'],
  wary: ['Email. I want everything in writing.', 'Email. Then I have it in writing.'],
  sceptical: ['Email, please. I like to read things twice.', 'Email works. Then I have it in writing.'],
};

/** Asked for the bathroom: where it is, in the owner's manner. */
export const RESTROOM: Record<Style, string[]> = {
  friendly: [
    'Of course! Down the hall, first door on the left.',
    'Sure, go ahead. Just past the kitchen on the right.',
  ],
  hurried: ['Down the hall, on the left. Be quick.', 'First door on the left.'],
  wary: ["It's down the hall. I'll wait here.", 'Down the hall on the left. Mind the rug.'],
  sceptical: ['Sure. Down the hall, on the left.', "It's just past the kitchen."],
};

export const OFF_TOPIC: Record<Style, string[]> = {
  friendly: ["Ha, couldn't tell you, friend.", "Oh, I wouldn't know about that.", "Ha, that's a new one."],
  hurried: [
    "That's not what I've got time for.",
    'No idea. Not why you are here.',
    "Don't know, don't care.",
  ],
  wary: [
    "What's that got to do with anything?",
    'Why are you asking me that?',
    "I don't see what that has to do with you being here.",
  ],
  sceptical: ["I'm not sure what that has to do with anything.", "I wouldn't know.", 'Odd question.'],
};

export const NON_ENGLISH: Record<Style, string[]> = {
  friendly: [
    'Sorry, friend, I only speak English. Say that again?',
    'Ha, you lost me there. English, please?',
  ],
  hurried: ['English, please. I only speak English.', "I don't speak that. In English?"],
  wary: ["I don't understand that. English, please.", "Speak English, I don't follow."],
  sceptical: ["Sorry, I don't speak that. In English, please?", "I didn't understand. English, please."],
};

export const NOT_CAUGHT: Record<Style, string[]> = {
  friendly: ["Sorry, I didn't catch that.", 'Come again?', 'Say that one more time?'],
  hurried: ['What?', "Didn't catch that.", 'Come again?'],
  wary: ['What was that?', "Speak up. I didn't catch it.", 'Come again?'],
  sceptical: ["Sorry, I didn't catch that.", 'Pardon?', 'What was that?'],
};

export const RUDE: Record<Style, string[]> = {
  friendly: ["Hey now, there's no need for that.", "Whoa, let's keep it friendly, okay?"],
  hurried: ["Watch your mouth. I don't have time for this.", "Don't talk to me like that."],
  wary: ["Talk to me like that again and you're off my porch.", 'Mind your language on my porch.'],
  sceptical: ["Excuse me? Don't talk to me like that.", "That's uncalled for."],
};

export const RUDE_END: Record<Style, string[]> = {
  friendly: ["Okay, I think we're done here. Please go.", "Alright, that's enough. Have a good day."],
  hurried: ["We're done. Get off my property.", "That's it. Goodbye."],
  wary: ["That's it. Off my porch, now.", "We're done. Don't come back."],
  sceptical: ["We're done here. Please leave.", "I'm closing the door now. Goodbye."],
};

export const GOODBYE: Record<Style, string[]> = {
  friendly: ['Take care now! Bye.', 'Bye now, drive safe!', 'Okay, bye bye! Nice talking to you.'],
  hurried: ['Yep. Bye.', 'Alright, bye.', 'Okay. Goodbye.'],
  wary: ['Goodbye.', 'Mm-hm. Bye.', 'Alright. Goodbye.'],
  sceptical: ['Okay. Goodbye.', 'Thanks. Bye.', 'Alright, bye.'],
};

export const GOODBYE_AGREED: Record<Style, string[]> = {
  friendly: ['See you then! Bye now.', 'Looking forward to it. Bye!'],
  hurried: ['See you then. Bye.', 'Good. Bye.'],
  wary: ["See you then. Don't be late. Goodbye.", 'Alright. Bye.'],
  sceptical: ['See you then. Goodbye.', 'Okay, see you then. Bye.'],
};

export const AGREED_ACK: Record<Style, string[]> = {
  friendly: [
    'Great. See you then.',
    "Sounds good, we'll be here.",
    'Perfect. {Spouse} will be glad.',
    'Sure thing.',
  ],
  hurried: ['Good. See you then.', 'Fine. Send me a text.', 'Yep.', 'Okay.'],
  wary: ['Alright. In writing, remember.', "Fine. I'll be here.", 'Okay.', 'Mm-hm.'],
  sceptical: ['Okay, sounds good.', 'Alright. See you then.', 'Good.', 'Fine.'],
};

export const AGREED_CONFIRM: Record<Style, string[]> = {
  friendly: ['Oh, a reminder would be great, thanks.', 'Perfect, send it over.'],
  hurried: ['Text is fine. No calls.', 'Fine, send it.'],
  wary: ['Send it. And put your company name on it.', 'Alright, send it in writing.'],
  sceptical: ['Yes, please send a confirmation.', 'A reminder would be good, thanks.'],
};

export const STILL_AGREED: Record<Style, string[]> = {
  friendly: ["We're all set, don't worry.", 'Yep, still on.'],
  hurried: ['We already booked it.', "It's booked. What else?"],
  wary: ['I said yes already. Once.', "We've set it. Don't push it."],
  sceptical: ["We've already agreed on a time.", "Yes, that's settled."],
};

/** Lines for when nothing new fits and everything else has been said. */
export const FILLERS: Record<Style, string[]> = {
  friendly: [
    'Mm-hm.',
    'Oh, sure.',
    'Go on.',
    'I see.',
    'Okay!',
    'Right, right.',
    'Ha, okay.',
    'Well, alright.',
  ],
  hurried: ['And?', 'Okay.', 'Right.', 'Go on.', 'Mm.', 'Yep.', 'Next.', 'So?'],
  wary: ['Hm.', 'Uh-huh.', 'So?', 'Go on.', 'I see.', 'Right.', 'And?', 'Mm.'],
  sceptical: ['Mm-hm.', 'Okay.', 'I see.', 'Go on.', 'Right.', 'And?', 'Hm.', 'Alright.'],
};

/** Reactions to what the rep offers. */
export const REACT = {
  priceFits: ["That's about what we figured.", "Okay, that's within what we had in mind."],
  priceLow: ["That's less than I expected. What's the catch?"],
  priceOver: ["That's a bit more than we had in mind.", "Hm. That's over what we planned."],
  financing: ['Monthly payments could help.', 'Financing, okay. What rate?'],
  options: ['Options are good. Which one would you pick for us?', 'I like having a choice.'],
  recommendFits: ['That sounds like it fits what I told you.', 'Okay, that makes sense for us.'],
  recommendEarly: [
    "You don't really know what we need yet.",
    'How can you recommend anything before you know what we need?',
  ],
  warranty: ['A warranty in writing matters to me.', 'Good. What does the warranty cover?'],
  objectionAnswered: ["Okay. That's fair.", 'Hm. Alright, that helps.', 'Okay, I can live with that.'],
  objectionNoted: ["I hear you. I'll think about it.", "Maybe. I'm not fully convinced."],
  invite: [
    'Just one. What would all this cost us?',
    'How long would the work take?',
    'Who would actually do the work?',
  ],
};

export const fillLine = fillTemplate;

/** Said again while an objection is still open: the same worry in other words. */
export const STILL_OPEN: Record<ObjectionKind, string[]> = {
  price: ['The price still bothers me.', "I still don't see why it costs that much."],
  trust: ["I still haven't seen any proof of who you are.", "You still haven't shown me a licence."],
  timing: ['The timing still bothers me.', "I still don't know how the timing would work."],
  spouse: [
    'Like I said, {spouseName} has to be part of this.',
    "Not without {spouseName}. That hasn't changed.",
  ],
  competitor: [
    "You still haven't told me why you're better than the other quote.",
    'I still want to know what I get for the difference.',
  ],
};

/** Not agreeing yet, when the persona has no line of its own left. */
export const NOT_YET_MORE: Record<Style, string[]> = {
  friendly: ["Let's not get ahead of ourselves.", "I'd want to hear a bit more first."],
  hurried: ['Not yet.', 'Not until I know more.'],
  wary: ['No. Not yet.', "I'm not booking anything with you yet."],
  sceptical: ["I'm not ready for that.", 'Not yet, no.'],
};

/** Asked what they think before anything has been offered. */
export const NOTHING_OFFERED: Record<Style, string[]> = {
  friendly: [
    "Well, I haven't heard what you'd suggest yet. What would you do?",
    "About what, exactly? You haven't told me what you'd do for {thing}.",
  ],
  hurried: [
    "About what? You haven't told me what you'd do.",
    "Nothing yet. Tell me what you'd do and what it costs.",
  ],
  wary: [
    "I don't know yet. You haven't told me what you're proposing.",
    "Think about what? You haven't offered anything.",
  ],
  sceptical: ["Hard to say. I haven't heard an offer yet.", "I'd need to hear what you're proposing first."],
};

/** Asked what they think with no worry left: leaning toward it. */
export const LEANING: Record<Style, string[]> = {
  friendly: ["Honestly? It sounds good. It's what we need.", 'I like it. {Spouse} will want to hear it too.'],
  hurried: ["Sounds about right. What's the next step?", 'Fine by me, if you can do it soon.'],
  wary: ["It sounds alright. I'd want it all in writing.", "Maybe. Put it in writing and we'll see."],
  sceptical: [
    "It sounds reasonable. I'd want to see the details.",
    "I'm leaning toward it. Walk me through what's included.",
  ],
};

/**
 * Asked what they think of what was offered while the spouse still has to weigh in: their own view
 * first, then the spouse, never the spouse alone ("Like I said, Raj has to be part of this").
 */
export const OPINION_BUT_SPOUSE: Record<Style, string[]> = {
  friendly: [
    'I like the sound of it, honestly. But {Spouse} has to see it before we decide anything.',
    "It's close to what I pictured. {Spouse} will have a say, though.",
  ],
  hurried: ['Looks fine to me. {Spouse} still gets a say.', 'Could work. I need {Spouse} on board first.'],
  wary: ["It might suit us. I won't decide without {Spouse}.", 'Maybe. {Spouse} will want to see it too.'],
  sceptical: [
    "It's not bad. {Spouse} will pick it apart, though, and I'll wait for that.",
    "I could see it. But nothing's decided until {Spouse} has seen it.",
  ],
};

/** Asked what they think, not trusting the rep enough yet to lean either way. */
export const UNDECIDED: Record<Style, string[]> = {
  friendly: [
    "I'm not sure yet. It's a lot to take in.",
    "Hm, I don't know. Tell me more about how it would go.",
  ],
  hurried: ['Not sure yet. Convince me.', 'Undecided. What makes it worth it?'],
  wary: ["I don't know you well enough to say yet.", "I'm not sold. Why should I trust it?"],
  sceptical: ["Honestly, I'm on the fence.", "I'm not convinced yet. What makes it worth the money?"],
};

/** Asked what holds them back, with nothing left: no worry of their own. */
export const NO_CONCERN: Record<Style, string[]> = {
  friendly: ['Nothing really. I just want it done right.', "Not much, honestly. You've answered most of it."],
  hurried: ['Nothing. I just want it done.', "Nothing big. Just don't waste my time."],
  wary: [
    "Not much now. I'll read the paperwork, though.",
    'Less than before. I still read everything twice.',
  ],
  sceptical: ["Nothing major. I just don't like rushing.", "Not much. I'd like to see it on paper."],
};

/** Offered a brochure, a card or a written quote to keep. */
export const TAKES_INFO: Record<Style, string[]> = {
  friendly: [
    "Sure, leave it on the counter. I'll show {spouse}.",
    'Oh, please do. I like having something to look at.',
  ],
  hurried: ["Fine, leave it. I'll look when I have a minute.", 'Sure. Put it on the table.'],
  wary: ["Leave it. I'll read it, and I'll check you out.", 'You can leave it. I read everything twice.'],
  sceptical: ["Sure, leave it. I'll compare it with the others.", "Leave it with me. I'll look it over."],
};

/** After a short answer about their own life, back to the visit. */
export const LIFE_STEER: Record<Style, string[]> = {
  friendly: [
    'Anyway, enough about us. What about {thing}?',
    'But listen to me go on! Where were we?',
    'Anyway, where were we?',
  ],
  hurried: ['Anyway. {Thing}.', 'Now. {Thing}?', 'Back to {thing}.'],
  wary: ['Now, what about {thing}?', "That's enough about me.", 'Anyway. {Thing}.'],
  sceptical: ['Anyway. {Thing}?', "But that's not why you're here.", 'So. {Thing}.'],
};

/** Asked to look at something, once nothing more particular fits. */
export const INSPECT_OK: Record<Style, string[]> = {
  friendly: ['Sure, go right ahead. Take your time.', 'Of course, look all you like.'],
  hurried: ['Go ahead. Quickly.', 'Fine. Go look.'],
  wary: ["Go on. I'll be watching.", 'Look all you want. Touch nothing you are not fixing.'],
  sceptical: ['Go ahead.', 'Sure, have a look.'],
};

/** Asked to look around before showing who they are, by the owner who wants proof first. */
export const INSPECT_REFUSED: Record<Style, string[]> = {
  friendly: ["Hold on, who did you say you're with?"],
  hurried: ['Who are you with, first?'],
  wary: [
    'Not before I see a licence. Nobody goes poking around my house without one.',
    "Let's see some identification first. Then you can look.",
  ],
  sceptical: ['Before you go looking around, who are you with exactly?'],
};

/** More proof, once some was shown: noted. */
export const PROOF_AGAIN: Record<Style, string[]> = {
  friendly: ['Oh, good to know.', 'Good, thanks.'],
  hurried: ['Fine. Noted.', 'Good.'],
  wary: ['Alright. Noted.', "Good. That's something."],
  sceptical: ['Good to know.', 'Alright, noted.'],
};

/** Asked where to park the van or truck. */
export const PARKING: Record<Style, string[]> = {
  friendly: ["Oh, the driveway's fine, pull right up.", "Anywhere on the drive. You won't block anyone."],
  hurried: ["Driveway. Just don't block the garage.", 'On the street is fine.'],
  wary: ['On the street, please. Not on the lawn.', 'Park on the street.'],
  sceptical: ["The street's fine. Leave the drive clear.", 'On the street, in front of the house.'],
};

/** Asked for a gate code or how to get round the side. */
export const GATE: Record<Style, string[]> = {
  friendly: [
    'No code, just lift the latch. It sticks a little.',
    "There's no code. Reach over and lift the latch.",
  ],
  hurried: ['No code. Latch on the inside.', "It's not locked. Latch on the inside."],
  wary: ["There's no code. I'll walk you round.", "I'll open it for you. Follow me."],
  sceptical: ["No code. I'll come round with you.", "It's just a latch. I'll show you."],
};

/** Asked to come in. */
export const ENTER: Record<Style, string[]> = {
  friendly: ['Of course, come in, come in.', 'Sure, come on in. Mind the shoes by the door.'],
  hurried: ['Come in. Quickly, though.', 'Fine, come in.'],
  wary: ['Alright, come in. Shoes off, please.', 'You can come in for a few minutes.'],
  sceptical: ["Come in, then. I'll give you a few minutes.", 'Alright. Come in.'],
};

/** Asked to take photos: yes, or not before proof. */
export const PHOTO: Record<Style, string[]> = {
  friendly: ['Sure, go ahead.', 'Of course, take whatever you need.'],
  hurried: ['Fine. Be quick.', 'Go ahead.'],
  wary: ['Go ahead. And send me every one of them.', 'Alright. I want copies of all of them.'],
  sceptical: ['Sure, if you send me copies.', 'Go ahead.'],
};
export const PHOTO_REFUSED: Record<Style, string[]> = {
  friendly: ["I'd rather you didn't just yet.", 'Maybe later.'],
  hurried: ['No. Not yet.', 'No photos yet.'],
  wary: ['No photos. Not until I know who you are.', 'Not yet. Show me who you are first.'],
  sceptical: ["Not yet. I don't know you.", "I'd rather you didn't. Not yet."],
};

/** Offered something sent later (an email, a write-up, photos). */
export const SEND_OK: Record<Style, string[]> = {
  friendly: ['That would be lovely, thank you.', "Yes, please, send it over. I'll show {spouse}."],
  hurried: ['Fine. Email it.', "Send it. I'll read it tonight."],
  wary: ['Yes. In writing. {spouse} reads everything first.', "Send it. I'll read it twice."],
  sceptical: ['Yes, send it. I like having it in writing.', "Please do. I'll compare it with the others."],
};

/** Offered a call to the spouse right now. */
export const CALL_SPOUSE: Record<Style, string[]> = {
  friendly: [
    "Oh, {spouse}'s at work. Better to meet when we're both here.",
    "{spouse} can't take calls at work. Let's wait till we're both home.",
  ],
  hurried: ["No. {spouse}'s at work. Leave it with me.", "Don't call {spouse}. I'll pass it on tonight."],
  wary: [
    "No. {spouse} doesn't do phone sales. Put it in writing.",
    'No phone calls. {spouse} reads it on paper.',
  ],
  sceptical: [
    'No, {spouse} will want it on paper, not on the phone.',
    "I'd rather not. {spouse} likes to see things in writing.",
  ],
};

/** Asked what day was agreed: the day, or that nothing was. */
export const AGREED_DAY: Record<Style, string[]> = {
  friendly: ['{When}. I wrote it on the calendar.', 'We said {when}.'],
  hurried: ['{When}.', '{When}. Be on time.'],
  wary: ['{When}. Put it in writing.', 'We said {when}.'],
  sceptical: ['{When}, like we said.', '{When}. Write it down.'],
};
export const NOTHING_AGREED: Record<Style, string[]> = {
  friendly: ["We haven't settled on a day yet.", "I don't think we picked a day yet."],
  hurried: ["We didn't land on anything.", 'Nothing. We never set a day.'],
  wary: ["We didn't agree on any day.", "We haven't agreed to anything."],
  sceptical: ["We haven't agreed on a day.", 'Nothing is agreed yet.'],
};

/** Offered a choice of days, and neither is taken yet. */
export const NEITHER_DAY: Record<Style, string[]> = {
  friendly: ["Let's not pick a day just yet.", 'Neither, for now.'],
  hurried: ['Neither. Not yet.', "I'm not picking a day yet."],
  wary: ["I'm not picking either. Not yet.", 'Neither. Not so fast.'],
  sceptical: ['Neither, yet.', "I'm not choosing a day yet."],
};

/** Asked who someone named is: "{spouse}'s my {role}." */
export const WHO_IS_SPOUSE: Record<Style, string[]> = {
  friendly: ["{spouse}'s my {role}.", "Ha, {spouse}'s my {role}."],
  hurried: ["{spouse}'s my {role}.", 'My {role}.'],
  wary: ['My {role}. {spouse}.', '{spouse} is my {role}.'],
  sceptical: ["{spouse}'s my {role}.", 'My {role}, {spouse}.'],
};

/** A question about the trade's thing the homeowner simply cannot answer (the filter size, a model number). */
export const DONT_KNOW: Record<Style, string[]> = {
  friendly: ["Oh, I have no idea. You'd have to look.", "Gosh, I wouldn't know. {spouse} might."],
  hurried: ['No idea. Look at it yourself.', "Don't know. Whatever came with it."],
  wary: ["I don't know. You can check when you look.", "No idea. That's your job, isn't it?"],
  sceptical: ["I couldn't tell you.", "I don't know that. You'd have to check."],
};

/** The rep's price is below the other quote: noticed, and the catch asked for. */
export const UNDER_THE_QUOTE: Record<Style, string[]> = {
  friendly: [
    "Oh, that's less than the other quote. What's the difference?",
    "That's actually under what the other company said.",
  ],
  hurried: ["That's under the other guy's number. What's the catch?", 'Less than the other quote. Why?'],
  wary: [
    "That's less than the other quote. So what are you leaving out?",
    "Cheaper than the other one. What's the catch?",
  ],
  sceptical: [
    "That's less than the other quote. What's included?",
    'Less than the other quote. So what is left out?',
  ],
};

/** The rep has the wrong job ("so it's the roof you wanted looked at?"): put right. */
export const WRONG_JOB: Record<Style, string[]> = {
  friendly: ['Oh, no, not that! {Problem}.', 'Ha, no, wrong one. {Problem}.'],
  hurried: ['No. {Problem}. Did you read the job sheet?', 'Wrong house? {Problem}.'],
  wary: ['No. {Problem}. Do you have the right address?', "That's not it. {Problem}."],
  sceptical: ["No, that's not what I called about. {Problem}.", 'No. {Problem}.'],
};

/** Pushed by fear ("that'll leak carbon monoxide, you don't want that"): not frightened into it. */
export const PRESSURED_FEAR: Record<Style, string[]> = {
  friendly: [
    "Oh, now you're scaring me. Is that really true, or is that the sales talk?",
    "Let's not be dramatic, now.",
  ],
  hurried: [
    "Don't try to scare me. If it's dangerous, show me. Otherwise, numbers.",
    'Scare tactics. Really?',
  ],
  wary: ["Don't try to frighten me into it.", "That's a scare, not a reason."],
  sceptical: [
    "Don't try to scare me into signing.",
    'If it were that dangerous, someone would have said. Show me.',
  ],
};

/** A second day offered only in case the first is awkward, after the first was taken: the first stands. */
export const KEEP_DAY: Record<Style, string[]> = {
  friendly: ["{When} is fine, let's keep {when}.", "No, {when} suits us. Let's stick with it."],
  hurried: ['{When} is fine. Keep it.', 'We said {when}. Keep it.'],
  wary: ["We'll keep {when}.", '{When} stays.'],
  sceptical: ["{When} is fine. Let's not change it.", "We'll keep {when}, thanks."],
};

/** The rep reads back what was agreed: yes, that is it. */
export const RECAP_RIGHT: Record<Style, string[]> = {
  friendly: ["That's right. {When}, we'll be here.", 'Yes, all correct.'],
  hurried: ['Yes. {When}.', "That's it."],
  wary: ["That's right. In writing, please.", 'Yes, {when}. Like we said.'],
  sceptical: ["That's what we agreed. {When}.", 'Correct.'],
};

/** One of two things the rep asked them to choose between, picked. */
export const CHOOSE: Record<Style, string[]> = {
  friendly: ['{Choice}, I think.', 'Oh, {choice}, I would say.'],
  hurried: ['{Choice}.', '{Choice}. Next?'],
  wary: ['{Choice}.', '{Choice}, if you must know.'],
  sceptical: ['{Choice}.', '{Choice}. Why do you ask?'],
};
/** Asked to choose between two ways to go before they know enough: not decided, in character. */
export const NOT_CHOSEN: Record<Style, string[]> = {
  friendly: ["Honestly, I haven't decided between {a} and {b}. What would you do?"],
  hurried: ["Haven't decided. What's the difference, quickly?"],
  wary: ["I haven't decided. What's the difference, in plain words?"],
  sceptical: ["Depends what it costs. What's the real difference between {a} and {b}?"],
};
/** A fact of their own house the rep asked them to pick out ("the front door or the back?"). */
export const CHOSEN_FACT: Record<Style, string[]> = {
  friendly: ['Oh, the {choice}.', 'The {choice}, yes.'],
  hurried: ['The {choice}.'],
  wary: ['The {choice}.'],
  sceptical: ['The {choice}.', 'The {choice}. Why?'],
};
