import { PERSONAS, STAGES, type PersonaCard, type Stage } from '../../../core/stages';
import type { VoiceStyle } from '../tts/types';
import { capitaliseSentences, fillTemplate } from '../../understanding/text/lines';
import type { FliteVoice } from '../tts/unit-voices';

import {
  LIFE_SUBJECTS,
  TOPICS,
  type LifeSubject,
  type ObjectionKind,
  type Topic,
} from '../../understanding/types';

export { LIFE_SUBJECTS, TOPICS, type LifeSubject, type ObjectionKind, type Topic };

/** A short, human answer about the homeowner's life, then details for a follow-up ("how old are they?"). */
export interface LifeFact {
  answer: string[];
  more: string[];
}

/** Where something the rep asks to see is: the words that point at it, and what the homeowner says. */
export interface Spot {
  cues: string[];
  line: string;
}

/** Objections the homeowner can raise at fitting moments. */

export interface Need {
  topic: Topic;
  /** Trust needed before the homeowner answers openly (0..10); below it, a guarded answer. */
  minTrust: number;
  /** What is said when the need is revealed (variants; one is picked per call). */
  reveal: string[];
  /** What is said when asked before trust is earned. */
  guarded: string[];
  /**
   * Follow-up details, said in order when the rep asks more about a topic already answered
   * ("which rooms?", "what did they tell you?"), so a follow-up gets something new.
   */
  more?: string[];
}

export interface Temperament {
  /** Words in a rep's turn before an impatient owner cuts in (the HVAC owner is short). */
  ramblingWords: number;
  /** Starting trust 0..10 (the roofing owner starts low). */
  startTrust: number;
  /** Needs revealed before an appointment can be agreed. */
  needsToClose: number;
  /** Trust needed to agree to an appointment. */
  trustToClose: number;
  /** Asks for licences, insurance and references before trusting. */
  demandsProof: boolean;
  /** Chats back and offers small talk. */
  chatty: boolean;
}

export interface PersonaFacts {
  card: PersonaCard;
  /** espeak-ng voice (distinct per persona). */
  voice: string;
  /** Speaking rate (words per minute) and pitch for espeak-ng. */
  rate: number;
  pitch: number;
  household: {
    homeAgeYears: number;
    problem: string;
    budget: string;
    timeline: string;
    decider: string;
    spouseName: string;
    competingQuote: string;
    /** The other quote in dollars, to weigh the rep's price against; null when there is none. */
    quoteAmount: number | null;
    /** What the spouse is to the homeowner. */
    spouseRole: 'husband' | 'wife';
    /** What they would like installed (product wishes). */
    wishes: string;
    /** The budget as a dollar range, to weigh a quoted price against. */
    budgetRange: [number, number];
    /**
     * The same facts in other words: each call says its problem, budget and timeline one way and
     * keeps to it, so two calls do not open with the same sentence.
     */
    said: { problem: string[]; budget: string[]; timeline: string[] };
  };
  temperament: Temperament;
  openings: string[];
  needs: Need[];
  /** Objection lines by kind; the first raised is the persona's signature objection. */
  objections: Record<ObjectionKind, string[]>;
  signatureObjection: ObjectionKind;
  /** Said when the rep earns the appointment. */
  agree: string[];
  /** Said when the rep tries to close too early. */
  notYet: string[];
  /** Replies to pressure tactics (first offence, then repeat offence). */
  pressured: string[];
  pressuredAgain: string[];
  /** Cuts a rambling rep short. */
  cutShort: string[];
  /** Nudges when nothing in particular was asked. */
  nudges: string[];
  /** A brief reaction to empathy. */
  warmed: string[];
  /** Answer to a greeting or introduction. */
  greeted: string[];
  /** Reaction to proof (licences, insurance, references, warranty). */
  proofAccepted: string[];
  /** Reaction to a plain sales pitch without a question. */
  pitchReaction: string[];
  /** The homeowner's life beyond the job: family, work, pets, free time, where they are from. */
  life: Record<LifeSubject, LifeFact>;
  /** Asked to see something ("can I take a look at the furnace?"): where it is. The first is the default. */
  spots: Spot[];
  /**
   * Insurance for the damage, asked about ("has the adjuster been out?", "what's your
   * deductible?"): a claim in progress, or why there is none. Said once trust reaches `minTrust`;
   * before that, `guarded`.
   */
  claim: ClaimFact;
  /** How they came to call this company ("how'd you hear about us?"). */
  found: string[];
  /** When the household can meet. */
  schedule: Schedule;
  /** How old the thing itself is (the furnace, the roof, the carpet), asked apart from the house. */
  thingAge: string[];
  /** The same fact in a few words, for saying it again ("the furnace is about fifteen"). */
  thingAgeFact: string;
}

/**
 * When the household can meet for a next step: the days and parts of the day that suit (the
 * decision-maker has to be there), said when asked, and a counter-offer for a day that does not suit.
 */
export interface Schedule {
  /** Words in a proposed day or time that suit ("evening", "saturday"); any other day gets the counter. */
  suits: string[];
  /** When the household is free, said when asked ("are evenings better for Mark?"). */
  free: string[];
  /** Who is home right now, said when asked ("is Mark about today?"). */
  now: string[];
  /** A day that does not suit, countered with one that does. */
  counter: string[];
}

export interface ClaimFact {
  minTrust: number;
  answer: string[];
  more: string[];
  guarded: string[];
}

const p = PERSONAS;

/** The five homeowners (spec §3: buyer type, focus, difficulty) with their household facts. */
export const PERSONA_FACTS: Record<Stage, PersonaFacts> = {
  Windows: {
    card: p.Windows,
    voice: 'en-us+f3',
    rate: 165,
    pitch: 55,
    household: {
      homeAgeYears: 31,
      problem:
        'drafty single-pane windows in the living room and two bedrooms, and condensation running down the glass',
      budget: 'around twelve thousand dollars, maybe fifteen if it is really worth it',
      timeline: 'before winter, so in the next two or three months',
      decider: 'me and my husband together',
      spouseName: 'Mark',
      spouseRole: 'husband',
      quoteAmount: 11000,
      competingQuote: 'a quote from a big-box store for about eleven thousand for vinyl windows',
      wishes:
        'double-pane windows that actually stop the drafts, nothing fancy, white frames like we have now',
      budgetRange: [12000, 15000],
      said: {
        problem: [
          'single-pane windows in the living room and both bedrooms that let the cold straight in, and the glass runs wet all winter',
          "old single-pane windows, the living room and the two bedrooms, drafty, and dripping with condensation when it's cold",
          'three rooms of single-pane glass, the living room and both bedrooms, cold to stand next to and wet every winter morning',
        ],
        budget: [
          "about twelve thousand, fifteen at the very most if it's really worth it",
          'twelve thousand or so. Fifteen if you can show us why',
        ],
        timeline: [
          'in the next couple of months, before winter',
          'within two or three months, before it gets cold',
        ],
      },
    },
    temperament: {
      ramblingWords: 70,
      startTrust: 4,
      needsToClose: 3,
      trustToClose: 6,
      demandsProof: false,
      chatty: false,
    },
    openings: [
      'Hi. Can I help you?',
      "Hello. If this is about windows, I've already had a couple of people out.",
      'Yes? What is this about?',
    ],
    needs: [
      {
        topic: 'home',
        minTrust: 2,
        reveal: ['The house is {homeAgeYears} years old. The windows are the originals, I think.'],
        guarded: ["It's an older house. Why?"],
        more: [
          "We've been here about twelve years. We plan to stay until we retire, so I'd rather do this once.",
          "It's a two-storey, and the bedrooms face the street.",
        ],
      },
      {
        topic: 'problem',
        minTrust: 3,
        reveal: [
          'Honestly, we have {problem}. The heating bill last January was awful.',
          'The main thing is {problem}. You can feel the cold standing next to them.',
        ],
        guarded: ["They're old windows. I'm sure you can guess."],
        more: [
          "The living room is the worst. There's a real chill by the big window, and the street noise comes right through.",
          "Two of the bedroom windows won't stay open either. We prop them with a book.",
          "It's mostly the cold. The noise bothers Mark more than me.",
          'Our heating bill runs about three hundred a month in winter. For this size house, that seems wrong.',
          "It's been getting worse every winter for a few years now. This last one was the worst yet.",
          "Nothing's been done to them since we moved in, beyond new caulk once.",
        ],
      },
      {
        topic: 'budget',
        minTrust: 5,
        reveal: ['We were thinking {budget}.'],
        guarded: ["I'd rather hear your price first, to be honest."],
        more: ["If the monthly payment is sensible, Mark might go a little higher. But we don't like debt."],
      },
      {
        topic: 'timeline',
        minTrust: 3,
        reveal: ['We want it done {timeline}.'],
        guarded: ["No rush. We're just looking."],
        more: ["We'd want the installers gone before the first frost. Last year it came in October."],
      },
      {
        topic: 'decision',
        minTrust: 3,
        reveal: ["It's {decider}. {spouseName} handles the numbers."],
        guarded: ["We'll decide when we decide."],
        more: ['Mark will want to see the numbers side by side with the other quote.'],
      },
      {
        topic: 'quotes',
        minTrust: 4,
        reveal: ['We already have {competingQuote}. So what makes yours different?'],
        guarded: ["We're talking to a few companies."],
        more: [
          "They were friendly enough, but they couldn't tell me what the glass actually was. That bothered me.",
          "Their price didn't include taking the old frames out, I noticed that later.",
        ],
      },
      {
        topic: 'priorities',
        minTrust: 4,
        reveal: [
          'What matters most is that they actually stop the drafts and that they last. I do not want to do this twice.',
        ],
        guarded: ['Just good windows at a fair price.'],
        more: ["And I don't want my house full of dust for a week. We both work from home."],
      },
      {
        topic: 'product',
        minTrust: 3,
        reveal: ["We'd want {wishes}."],
        guarded: ['Which windows? Tell me what you would put in first.'],
        more: ["I've read a little about low-E glass. I don't know if it's worth it."],
      },
    ],
    objections: {
      price: ["That's more than the other quote we got. Why would I pay more for windows?"],
      trust: ['Everybody says their windows are the best. How do I know yours are any different?'],
      timing: ["We're not in a hurry. I want to compare a few more options."],
      spouse: ["I can't decide anything without {spouseName}. He'll want to see the numbers."],
      competitor: [
        'I have {competingQuote}. Why should I go with you instead?',
        'Honestly, the other company was cheaper. What do I get for the difference?',
      ],
    },
    signatureObjection: 'competitor',
    agree: [
      "Okay. That actually makes sense. Can you come back Thursday evening when {spouseName} is home? We'll look at it together.",
      "Alright, you've answered my questions. Let's set a time for a proper measurement, when {spouseName} is here.",
    ],
    notYet: [
      "Slow down. I don't even know what you're offering compared to the others.",
      "I'm not ready to book anything yet. You haven't told me why you're different.",
    ],
    pressured: ["Don't push me. I'm comparing quotes, and pressure doesn't help your case."],
    pressuredAgain: ["Okay, I think we're done here. I don't buy from people who push like this."],
    cutShort: ["That's a lot of talking. What's the actual difference with your windows?"],
    nudges: [
      'So what exactly are you offering?',
      'And how is that different from what the other companies told me?',
      'Mm-hm. Go on.',
    ],
    warmed: ['Well, thank you. I appreciate that.', "Okay. At least you're listening."],
    greeted: [
      "Hi. I'm Linda. I have a few minutes, so what is this about?",
      "Hello. Linda. If you're here about windows, I'm listening, but I've heard a lot of pitches already.",
    ],
    proofAccepted: ["Okay, a real warranty and references help. I'll want that in writing."],
    pitchReaction: ["Mm-hm. Everybody says that. What's different about yours?"],
    life: {
      kids: {
        answer: ["We have a son. He's away at college, so it's mostly {spouseName} and me now."],
        more: [
          "He's in his second year, studying engineering. He'd ask you a lot of questions about the glass.",
        ],
      },
      work: {
        answer: ["I'm a bookkeeper. I work from home, so I sit next to these drafty windows all day."],
        more: ["It's quiet work. Or it would be, without the street noise coming through that window."],
      },
      pets: {
        answer: ["No pets. {spouseName}'s allergic."],
        more: ['We had a cat years ago. Never again, with his allergies.'],
      },
      leisure: {
        answer: ['Reading, mostly. I garden a little when the weather is warm.'],
        more: ['We walk a lot in the evenings. The neighbourhood is nice for it.'],
      },
      roots: {
        answer: ['We moved out here from the city about twelve years ago.'],
        more: ['I grew up in a house a lot like this one, actually. Same drafty windows.'],
      },
      spouse: {
        answer: ['{spouseName} does insurance claims, from home, like me.'],
        more: [
          "We've been married twenty-six years this spring.",
          "He's the one who reads every line of a contract. Be ready for that.",
        ],
      },
    },
    claim: {
      minTrust: 0,
      answer: ["No, insurance doesn't come into it. The windows are just old, so this one's on us."],
      more: ['We asked once. Wear and tear is not covered, they said.'],
      guarded: [],
    },
    schedule: {
      suits: ['evening', 'night', 'saturday', 'weekend', 'six', 'seven', '6', '7', 'after work'],
      free: [
        "Mark's home after six on weekdays, and Saturdays. Evenings are easiest.",
        'Evenings after six, or Saturday morning. Mark works days.',
      ],
      now: ["Just me today. Mark's at work until six.", "Just me, I'm afraid. Mark gets home around six."],
      counter: [
        "Mark's not home until six on weekdays. Could you do an evening instead, or a Saturday?",
        "That's a workday for Mark. An evening after six, or Saturday morning, would work.",
      ],
    },
    thingAge: ['The windows are original, so thirty-one years.', 'Same age as the house. Thirty-one years.'],
    thingAgeFact: 'the windows are thirty-one years old',
    found: [
      'I filled in a form on your website after the second quote. I wanted one more opinion before we decide.',
      "Mark said get three quotes before we spend that kind of money. You're number three.",
    ],
    spots: [
      {
        cues: ['window', 'living room', 'worst', 'big', 'trouble', 'draft', 'cold', 'feel'],
        line: "Sure, this way. It's the big one in the living room. Stand next to it and you'll feel it.",
      },
      {
        cues: ['bedroom', 'upstairs', 'street'],
        line: 'The bedrooms are upstairs, the two facing the street. Go ahead, the doors are open.',
      },
      {
        cues: ['measure', 'measurement', 'tape', 'size', 'all of them', 'these', 'those'],
        line: "Go ahead and measure. I'd like a copy of the numbers, though.",
      },
      {
        cues: ['frame', 'sill', 'outside', 'seal', 'condensation', 'pane'],
        line: "Have a look. You can see the fog between the panes on that one, and the sill's gone soft.",
      },
    ],
  },
  HVAC: {
    card: p.HVAC,
    voice: 'en-us+m3',
    rate: 190,
    pitch: 40,
    household: {
      homeAgeYears: 18,
      problem:
        'the furnace is short-cycling and the upstairs never gets warm, and the unit is fifteen years old',
      budget: 'maybe six to eight thousand, if it is done right',
      timeline: 'as soon as possible, the nights are getting cold',
      decider: 'me. My wife trusts me on this stuff',
      spouseName: 'Karen',
      spouseRole: 'wife',
      quoteAmount: 7000,
      competingQuote: 'a guy quoted seven grand for a new furnace but he could not come for three weeks',
      wishes: 'a reliable furnace that heats the upstairs, no bells and whistles',
      budgetRange: [6000, 8000],
      said: {
        problem: [
          'the furnace keeps short-cycling, on and off, the upstairs is always cold, and the thing is fifteen years old',
          "it's short-cycling, on and off all night, and the kids' rooms upstairs never warm up, and the unit's fifteen",
          'a fifteen-year-old furnace that keeps short-cycling and never gets the upstairs warm',
        ],
        budget: [
          "somewhere between six and eight grand, if it's done right",
          'six to eight thousand. Done properly',
        ],
        timeline: ['now. The nights are getting cold', "as soon as you can. It's getting cold at night"],
      },
    },
    temperament: {
      ramblingWords: 35,
      startTrust: 4,
      needsToClose: 2,
      trustToClose: 5,
      demandsProof: false,
      chatty: false,
    },
    openings: [
      "Yeah? I've got about ten minutes before a call. What do you need?",
      "Hi. Make it quick, I'm in the middle of something.",
      'Yes? I only have a couple of minutes.',
    ],
    needs: [
      {
        topic: 'home',
        minTrust: 2,
        reveal: ['House is {homeAgeYears} years old. Furnace is about fifteen.'],
        guarded: ['Old enough. Next question.'],
        more: ["We've been here about eight years. Furnace came with the house."],
      },
      {
        topic: 'problem',
        minTrust: 2,
        reveal: ['Fine. {problem}.', 'Short version: {problem}.', 'Here is the thing: {problem}.'],
        guarded: ['It works. Mostly. Why?'],
        more: [
          "Upstairs. Downstairs is fine, the kids' rooms upstairs are freezing.",
          'It clicks on, runs a few minutes, shuts off. Over and over. Started last winter.',
          "Worst on the cold nights. Anything near freezing and it can't keep up. A mild night, it copes.",
          'A guy came out last year and cleaned something. Lasted two weeks.',
          "Electric's fine in summer. It's the gas bill in winter. Three-fifty last January, and half the house still cold.",
          "Nobody's serviced it regularly. The guy last year was the first time in years anyone opened it up.",
        ],
      },
      {
        topic: 'budget',
        minTrust: 4,
        reveal: ["Budget's {budget}."],
        guarded: ['Depends what it costs. Give me a number.'],
        more: ["I'd rather pay once than pay for another service call every month."],
      },
      {
        topic: 'timeline',
        minTrust: 2,
        reveal: ['{timeline}.'],
        guarded: ['Soon-ish.'],
        more: ['The kids are sleeping in our room on cold nights. So, soon.'],
      },
      {
        topic: 'decision',
        minTrust: 3,
        reveal: ["It's {decider}."],
        guarded: ["I'm the one you're talking to."],
        more: ["Karen will ask what it costs. That's about it."],
      },
      {
        topic: 'quotes',
        minTrust: 3,
        reveal: ['Yeah, {competingQuote}.'],
        guarded: ['I have options.'],
        more: [
          "Said it was the heat exchanger, or maybe the control board. He wasn't sure. That's why I called you.",
          "His price was just the furnace. Didn't say anything about the ducts.",
        ],
      },
      {
        topic: 'priorities',
        minTrust: 3,
        reveal: ['I want heat upstairs, no surprises on the bill, and nobody wasting my time.'],
        guarded: ['Just fix it.'],
        more: ['And quiet. The old one rattles the vents.'],
      },
      {
        topic: 'product',
        minTrust: 2,
        reveal: ['I want {wishes}.'],
        guarded: ["What kind of system? You're the expert, you tell me."],
        more: ["Heat pump, furnace, I don't care what it's called if the upstairs gets warm."],
      },
    ],
    objections: {
      price: ["That's more than I wanted to spend.", "That's a lot of money. What am I getting for it?"],
      trust: ['How do I know you are not just going to sell me a whole new system I do not need?'],
      timing: ["I don't have time for a big project right now. Can you do it fast or not?"],
      spouse: ['I should run it by {spouseName} first.'],
      competitor: ['The other guy quoted seven grand. Beat that or tell me why not.'],
    },
    signatureObjection: 'timing',
    agree: [
      "Fine. If you can get someone out here tomorrow morning, let's book it. Eight o'clock.",
      "Okay, that's clear. Put me down for the earliest slot you have.",
    ],
    notYet: [
      "Hold on. You haven't even asked what's wrong with it.",
      "I'm not booking anything until I know what it costs and how fast you can do it.",
    ],
    pressured: ["Don't give me the today-only stuff. I don't have time for games."],
    pressuredAgain: ["We're done. I've got a call. Leave a card if you want."],
    cutShort: [
      "Look, I've got ten minutes. What's the bottom line?",
      'Sorry, let me stop you. Short version, please. What are you offering and what does it cost?',
    ],
    nudges: ['And?', 'Get to the point. What do you need from me?', 'Okay. What else?'],
    warmed: ['Yeah. Okay.', 'Right. Thanks.'],
    greeted: ["Dave. Yeah, hi. What's this about?", "Hi. I'm Dave. Go ahead, quickly."],
    proofAccepted: ['Okay, licensed and a warranty. Good. What next?'],
    pitchReaction: ['Okay. And what does that mean for me?'],
    life: {
      kids: {
        answer: ['Two. Their rooms are the cold ones upstairs.'],
        more: ['Nine and six. Old enough to complain about the cold, loudly.'],
      },
      work: {
        answer: ["Project manager. Hence the call I've got in ten minutes."],
        more: ['Construction projects, mostly. So I know what a padded quote looks like.'],
      },
      pets: {
        answer: ['No pets. The kids want a dog. Not this year.'],
        more: ['{spouseName} says maybe next year. We will see.'],
      },
      leisure: {
        answer: ["Free time? I've got two kids and a cold house."],
        more: ['I coach the kids at soccer on Saturdays, when I can.'],
      },
      roots: {
        answer: ['Grew up two towns over. Been in this house about eight years.'],
        more: ["{spouseName}'s from here. Her folks are ten minutes away."],
      },
      spouse: {
        answer: ["{spouseName}'s a nurse, nights mostly. Another reason I want the house warm and quiet."],
        more: ['Married twelve years.', "She trusts me on the house stuff. She'll ask what it costs."],
      },
    },
    claim: {
      minTrust: 0,
      answer: ['No claim. Insurance does not pay for a furnace wearing out.'],
      more: ['We had a home warranty when we bought the place. It ran out a couple of years ago.'],
      guarded: [],
    },
    schedule: {
      suits: [
        'tomorrow',
        'today',
        'first thing',
        'morning',
        'early',
        'seven',
        'eight',
        '7',
        '8',
        'asap',
        'soonest',
        'saturday',
        'sunday',
        'weekend',
        'evening',
        'six',
        '6',
      ],
      free: [
        'Mornings before nine, or after five. The sooner the better.',
        'Early morning is best. I leave for work at nine.',
      ],
      now: [
        "Just me. Karen's on nights, she's asleep upstairs.",
        "Just me. Karen's sleeping, she works nights.",
      ],
      counter: [
        "That's later than I'd like. Can you do tomorrow, first thing?",
        'I leave at nine. Can you make it early, like seven-thirty?',
      ],
    },
    thingAge: ['Furnace is about fifteen. Came with the house.', 'Fifteen years, give or take.'],
    thingAgeFact: 'the furnace is about fifteen',
    found: [
      'Searched furnace repair. Your office called back first. That counts for something.',
      "Nobody else could come out this week. That's the whole reason.",
    ],
    spots: [
      {
        cues: ['furnace', 'unit', 'system', 'basement', 'burner', 'blower', 'filter', 'it', 'equipment'],
        line: "Sure. The furnace is in the basement, door's off the kitchen. Watch the stairs.",
      },
      {
        cues: ['attic', 'air handler', 'handler', 'duct', 'ductwork', 'vent', 'hatch'],
        line: "Attic hatch is in the upstairs hall. It's just ductwork up there, the furnace itself is in the basement.",
      },
      {
        cues: ['thermostat', 'control'],
        line: "Thermostat's in the front hallway. Go ahead.",
      },
      {
        cues: ['ac', 'condenser', 'outside', 'outdoor', 'air conditioner', 'heat pump'],
        line: "The AC's out back by the fence. Go ahead, the gate's open.",
      },
      {
        cues: ['room', 'bedroom', 'upstairs', 'kid'],
        line: "Kids' rooms are upstairs on the right. Put your hand on the vent, barely anything comes out.",
      },
    ],
  },
  Roofing: {
    card: p.Roofing,
    voice: 'en-us+m7',
    rate: 150,
    pitch: 25,
    household: {
      homeAgeYears: 42,
      problem: 'a leak over the back bedroom after the last storm and some shingles blew off',
      budget: "whatever the insurance pays, I'm not paying much on top",
      timeline: 'before the next big storm, but I am not rushing into anything',
      decider: 'me and my wife, and I do not sign anything without reading it twice',
      spouseName: 'Ellen',
      spouseRole: 'wife',
      quoteAmount: null,
      competingQuote: 'two quotes already, one storm chaser who wanted cash up front',
      wishes: 'a proper repair, or a new roof only if it truly needs one, and the same dark shingles',
      budgetRange: [8000, 11000],
      said: {
        problem: [
          'a leak over the back bedroom since the last storm, and a few shingles gone',
          'a leak over the back bedroom since the storm took some shingles off',
          'a leak over the back bedroom, a stain on the ceiling since the last storm, and shingles missing up top',
        ],
        budget: [
          'what the insurance pays. Not much more out of my pocket',
          'whatever insurance covers, and not a lot on top',
        ],
        timeline: [
          "before the next big storm, but I won't be rushed",
          'before another storm comes through. But nobody rushes me',
        ],
      },
    },
    temperament: {
      ramblingWords: 60,
      startTrust: 1,
      needsToClose: 3,
      trustToClose: 6,
      demandsProof: true,
      chatty: false,
    },
    openings: [
      "What do you want? If you're one of those storm chasers, you can keep walking.",
      "Yeah? I've had three roofers knock this week. Who are you with?",
      "Hm. Another roofer. Let's see some identification first.",
    ],
    needs: [
      {
        topic: 'home',
        minTrust: 2,
        reveal: ['The house is {homeAgeYears} years old. The roof was redone maybe twenty years back.'],
        guarded: ['Why do you need to know? You can see it from the street.'],
        more: ["We've lived here thirty years. We raised the kids here and we're not going anywhere."],
      },
      {
        topic: 'problem',
        minTrust: 3,
        reveal: ['Alright. We have {problem}.', "This much I'll tell you: we have {problem}."],
        guarded: ["I'm not telling you what's wrong so you can make up a bigger problem."],
        more: [
          "There's a brown stain on the bedroom ceiling, about the size of a dinner plate. It drips when it really pours.",
          'Three or four shingles on the back slope. I picked two of them up in the yard.',
          "I went up in the attic. The wood's damp along one rafter, that's all I saw.",
          'It started with that storm last spring. Every hard rain since, the stain gets a little bigger.',
          "The bills are fine. It's the leak I'm worried about, not the energy bill.",
          "Nobody's been up there since it was redone. I don't pay people to look at a roof that was doing its job.",
        ],
      },
      {
        topic: 'budget',
        minTrust: 6,
        reveal: ['Budget is {budget}.'],
        guarded: ["I'm not telling you my budget. You'll just quote right up to it."],
        more: ["The adjuster's coming next week. I'm not paying much over the deductible."],
      },
      {
        topic: 'timeline',
        minTrust: 3,
        reveal: ['I want it fixed {timeline}.'],
        guarded: ["When it's right. Not when you say so."],
        more: ["I put a tarp on it myself. It'll hold a few weeks, not a winter."],
      },
      {
        topic: 'decision',
        minTrust: 3,
        reveal: ["It's {decider}."],
        guarded: ['I decide.'],
        more: ['Ellen reads everything too. We sign together or not at all.'],
      },
      {
        topic: 'quotes',
        minTrust: 4,
        reveal: ['I have {competingQuote}. That one I threw out.'],
        guarded: ["I've talked to others. That's all you need to know."],
        more: [
          "He wanted half the money up front, cash, and he couldn't show me a licence. I sent him packing.",
          'The other one was a local outfit. Fair enough, but slow to call back.',
        ],
      },
      {
        topic: 'priorities',
        minTrust: 4,
        reveal: [
          "I want it done right, by people who'll still be around if it leaks again. And nobody taking my money and disappearing.",
        ],
        guarded: ['Honest work. That is rare enough.'],
        more: ['And I want the yard cleaned up after. Nails in the driveway last time.'],
      },
      {
        topic: 'product',
        minTrust: 3,
        reveal: ["I'd want {wishes}."],
        guarded: ["What kind of roof I want? I'll get to that once I know who you are."],
        more: ['Ellen likes the dark grey. Whatever matches the neighbours, I suppose.'],
      },
    ],
    objections: {
      price: ["That's highway robbery. The insurance won't cover that."],
      trust: [
        'Are you even licensed? Show me your licence and your insurance before we go any further.',
        "I've been burned before. How do I know you won't take the money and run? Got references?",
      ],
      timing: ["I'm not rushing into anything. I'll call you when I'm ready."],
      spouse: ["Ellen has to see everything in writing first. I don't sign on the doorstep."],
      competitor: ['The last guy said the whole roof has to go. Why should I believe you over him?'],
    },
    signatureObjection: 'trust',
    agree: [
      "Alright. You showed me your licence and you didn't push. Come back Saturday morning and do a proper inspection, with Ellen here. In writing, mind you.",
      "Okay. I'll give you one inspection. Saturday at ten. Bring the paperwork.",
    ],
    notYet: [
      "Not so fast. You don't know the first thing about this house yet.",
      "Hold on. I still don't know what you'd actually do up there, or what it costs me.",
    ],
    pressured: ["There it is. The pressure. That's exactly what the storm chasers do."],
    pressuredAgain: ["That's it. Get off my porch. I'm not signing anything today or any day."],
    cutShort: ['Enough sales talk. Do you have a licence or not?'],
    nudges: ['Uh-huh. And why should I trust you?', 'Go on. I am listening, for now.', 'So?'],
    warmed: ["Hm. Well, at least you're not pushing.", "Okay. That's fair."],
    greeted: [
      'Frank. Who are you with, and how long have you been in business?',
      "I'm Frank. Who sent you? Let's see some identification.",
    ],
    proofAccepted: [
      "Alright. Licensed and insured. I'll check that number, you know. References are good too.",
      "Okay. That's more than the last guy showed me.",
    ],
    pitchReaction: ["That's what they all say.", 'Sure. And the last guy had a brochure too.'],
    life: {
      kids: {
        answer: ['Two. Grown and moved out. Why?'],
        more: ['The grandkids come most Sundays. That is all you need to know about them.'],
      },
      work: {
        answer: ['Retired. Thirty-four years at the post office.'],
        more: ['I did my own repairs all that time. I know a bad roof job when I see one.'],
      },
      pets: {
        answer: ['No. Just the squirrels, and they do not pay rent.'],
        more: ["We had a dog for fourteen years. Haven't had the heart for another."],
      },
      leisure: {
        answer: ['I fix things. Keeps me out of trouble.'],
        more: ['{spouseName} does the garden. I mow. That is the deal.'],
      },
      roots: {
        answer: ['Born and raised in this town. Not going anywhere.'],
        more: ['My father built half the garages on this street. So I know good work when I see it.'],
      },
      spouse: {
        answer: ['{spouseName} ran the school office till she retired.'],
        more: ['Forty-one years married.', 'She reads everything before I sign. Always has.'],
      },
    },
    claim: {
      minTrust: 2,
      answer: ["I filed a claim right after the storm. The adjuster's coming next week, Thursday morning."],
      more: [
        "The deductible's a thousand dollars. I'm not paying much on top of that.",
        "They haven't said what they'll cover yet. That's why I'm not signing anything.",
      ],
      guarded: ["That's between me and my insurance company."],
    },
    schedule: {
      suits: ['saturday', 'weekend', 'morning'],
      free: [
        "{spouseName} works weekdays. Saturday mornings she's home, and I don't decide without her.",
        'Saturday morning, when {spouseName} is here to read it too.',
      ],
      now: ["Ellen's at work. You're talking to me.", 'Just me. Ellen works weekdays.'],
      counter: [
        "{spouseName} works weekdays. If it's a Saturday morning, we'll both be here.",
        'Not then. Make it a Saturday morning, so {spouseName} can read it with me.',
      ],
    },
    thingAge: [
      'About twenty years. It was redone maybe twenty years back.',
      'Twenty-odd years. The house is older; the roof was redone.',
    ],
    thingAgeFact: 'the roof is about twenty years old',
    found: [
      "You left a flyer in the door after the storm. Doesn't mean I trust you.",
      "{spouseName} kept the flyer. She said at least you're local. We'll see.",
    ],
    spots: [
      {
        cues: ['roof', 'up', 'ladder', 'shingle', 'slope', 'on top', 'top'],
        line: "You can go up. Ladder's in the garage. Stay off the front slope, it's steep, and I'll be watching from the yard.",
      },
      {
        cues: ['attic', 'rafter', 'hatch', 'decking', 'underside'],
        line: "Attic hatch is in the hall closet. Mind the insulation. I'm coming up with you.",
      },
      {
        cues: ['ceiling', 'stain', 'bedroom', 'inside', 'leak', 'drip'],
        line: "Back bedroom, end of the hall. The stain's right over the bed.",
      },
      {
        cues: ['gutter', 'chimney', 'flashing', 'outside', 'around', 'yard'],
        line: "Walk around all you like. Just don't step in {spouseName}'s flower beds.",
      },
    ],
  },
  Flooring: {
    card: p.Flooring,
    voice: 'en-us+f2',
    rate: 160,
    pitch: 65,
    household: {
      homeAgeYears: 9,
      problem:
        'the carpet in the living room is stained and dated, and we want something that fits the modern kitchen',
      budget: 'around eight thousand for the main floor',
      timeline: 'within two months, before my parents visit',
      decider: 'my husband Raj and me. He cares about durability, I care about the look',
      spouseName: 'Raj',
      spouseRole: 'husband',
      quoteAmount: null,
      competingQuote: 'a showroom quote for engineered hardwood, but I was not sure about the colours',
      wishes:
        'a warm, light wood look that the dog cannot scratch, maybe engineered hardwood or a good vinyl',
      budgetRange: [7000, 9000],
      said: {
        problem: [
          'the living-room carpet is stained and looks dated next to the modern kitchen',
          "stained, tired carpet in the living room that doesn't go with the new kitchen at all",
          "that carpet. It's stained, it's dated, and it fights with the kitchen",
        ],
        budget: [
          'about eight thousand for the main floor',
          'around eight thousand, all in, for the main floor',
        ],
        timeline: [
          'in the next two months, before my parents come',
          'within two months. My parents visit after that',
        ],
      },
    },
    temperament: {
      ramblingWords: 80,
      startTrust: 4,
      needsToClose: 3,
      trustToClose: 5,
      demandsProof: false,
      chatty: true,
    },
    openings: [
      'Oh, hello! Are you the flooring person?',
      "Hi there. Come in, come in. Watch the boxes, we're still sorting things.",
      "Hello. Yes, we wanted to talk about the floors. I'm a little nervous about picking the wrong thing.",
    ],
    needs: [
      {
        topic: 'home',
        minTrust: 2,
        reveal: ["We bought it new {homeAgeYears} years ago. It's an open plan downstairs."],
        guarded: ["It's a fairly new house."],
        more: ["It's our first house. We love the neighbourhood."],
      },
      {
        topic: 'problem',
        minTrust: 2,
        reveal: ['Well, {problem}.', 'Honestly, {problem}.'],
        guarded: ["It just doesn't feel like us yet."],
        more: [
          "It's the living room and the hallway mostly. The carpet shows every paw print.",
          'The dog is a golden retriever, so whatever we get has to survive him.',
          "With the dog it's muddy paws, mostly, and scratches where his nails snag the carpet. There's a bald patch by the back door.",
          'The kitchen is all white cabinets now, and the brown carpet next to it looks tired.',
          "The carpet came with the house, so it's nine years old. It started looking tired after the dog arrived.",
          "Bills? No, nothing like that. It's how the floors look and how they hold up.",
          'We get the carpet cleaned every spring. It comes back worse every time.',
        ],
      },
      {
        topic: 'budget',
        minTrust: 4,
        reveal: ['We were hoping for {budget}.'],
        guarded: ["We haven't really settled on a number."],
        more: ['If the hallway pushes it over, we could do that part later.'],
      },
      {
        topic: 'timeline',
        minTrust: 2,
        reveal: ['We want it {timeline}.'],
        guarded: ['Sometime soon, I suppose.'],
        more: ["My parents arrive the second week of next month, and I'd love it done before."],
      },
      {
        topic: 'decision',
        minTrust: 3,
        reveal: ["It's {decider}."],
        guarded: ["We'll talk about it."],
        more: ["Raj will ask about scratches and water. I'll ask about the colour."],
      },
      {
        topic: 'quotes',
        minTrust: 3,
        reveal: ['We have {competingQuote}.'],
        guarded: ["We've looked around a little."],
        more: [
          'The sample looked great in the store, but at home it was too orange next to the cabinets.',
          "They wanted a deposit to even bring samples out. I didn't love that.",
        ],
      },
      {
        topic: 'priorities',
        minTrust: 3,
        reveal: [
          'I want it warm and light, something that goes with the white cabinets. And the dog, it has to survive the dog.',
        ],
        guarded: ['Something pretty, I suppose.'],
        more: ["And easy to clean. With the dog, I'm mopping every other day."],
      },
      {
        topic: 'product',
        minTrust: 2,
        reveal: ['I keep picturing {wishes}.'],
        guarded: ["Oh, I haven't decided on a material or a colour yet."],
        more: ["I've seen luxury vinyl that looks like oak. Is it really waterproof?"],
      },
    ],
    objections: {
      price: ["Oh. That's more than I expected. Is there something similar that costs less?"],
      trust: ["What if I pick it and then hate it once it's down? I can't undo that."],
      timing: ['I think I need some time to think about the colours.'],
      spouse: ["I'd really need Raj to see the samples before we decide anything."],
      competitor: ['The showroom had some lovely engineered hardwood. How is yours different?'],
    },
    signatureObjection: 'spouse',
    agree: [
      'That sounds lovely, actually. Could you bring samples on Saturday so Raj can see them too?',
      "Okay, I feel better about this. Let's book a time for you to bring samples and measure, when Raj is home.",
    ],
    notYet: [
      "Oh, I'm not sure yet. I haven't even seen any samples.",
      "Hmm, I'd like to understand the options first.",
    ],
    pressured: ["Oh. I don't like feeling rushed. This is our home."],
    pressuredAgain: ["I think I'd like you to go now, please. This doesn't feel right."],
    cutShort: ["Sorry, that's a lot at once. Could you show me what it would actually look like?"],
    nudges: [
      'What would you suggest for a room like ours?',
      'Hm. And what about the colours?',
      'Tell me more.',
    ],
    warmed: ["Thank you, that's reassuring.", "Oh, that's kind. Yes."],
    greeted: ["Hi! I'm Priya. Nice to meet you.", "Hello, I'm Priya. Thanks for coming by."],
    proofAccepted: ['A warranty and samples at home? Oh, that helps a lot.'],
    pitchReaction: ['That sounds nice. Would it go with our kitchen though?'],
    life: {
      kids: {
        answer: ["Two! They're the reason nothing stays clean around here."],
        more: ['Anika is six and Dev is three. Old enough to spill, too young to wipe it up.'],
      },
      work: {
        answer: ["I'm a graphic designer, mostly from home. So yes, I notice colours a lot!"],
        more: ['I work at the kitchen table most days, so I look at these floors all day long.'],
      },
      pets: {
        answer: ["That's Biscuit, our golden retriever. He's a sweetheart, but he sheds everywhere."],
        more: ['He just turned four and still acts like a puppy. He skids on everything.'],
      },
      leisure: {
        answer: ["Honestly, between work and the kids, it's mostly long walks with Biscuit."],
        more: ['And I cook a lot. That is why we redid the kitchen first.'],
      },
      roots: {
        answer: ['I grew up in Toronto. {spouseName} is from here, so we stayed.'],
        more: ["My parents are still in Toronto. They're the ones coming to visit."],
      },
      spouse: {
        answer: ["{spouseName}'s an engineer, so he'll ask you about the specs. I'll ask about the look."],
        more: ['Eleven years married! We met at university. He still teases me about my colour swatches.'],
      },
    },
    claim: {
      minTrust: 0,
      answer: ["No, nothing like that. The carpet's just worn out, and the dog didn't help."],
      more: ["Insurance would laugh at us. It's wear from the kids and a golden retriever, not a flood."],
      guarded: [],
    },
    schedule: {
      suits: ['evening', 'saturday', 'sunday', 'weekend', 'six', 'seven', 'half six', '6', '7'],
      free: [
        "Raj gets home around six, so evenings or the weekend. I'm home most afternoons with the kids.",
        'Weekends are easiest for both of us. Or an evening after six.',
      ],
      now: ['Just me and the kids. Raj is at work until six.', "Raj is at the office. He's home around six."],
      counter: [
        "Raj won't be home then, and I'd like him to see the samples. Could we do an evening, after six?",
        'Could we make it a Saturday instead? Then Raj can see them too.',
      ],
    },
    thingAge: [
      'The carpet came with the house, so about nine years.',
      'Nine years. It was here when we moved in.',
    ],
    thingAgeFact: 'the carpet is about nine years old',
    found: [
      "A friend from the kids' school had her stairs done by you. They look lovely.",
      'She said your crew was tidy. With two kids and a dog, tidy matters.',
    ],
    spots: [
      {
        cues: ['floor', 'room', 'living', 'carpet', 'around', 'house', 'downstairs', 'space', 'area'],
        line: 'Of course, come through. This is the living room, and the hallway runs along to the back. Mind the boxes.',
      },
      {
        cues: ['kitchen', 'cabinet'],
        line: 'The kitchen is right through here. See how the carpet looks next to the white cabinets?',
      },
      {
        cues: ['hallway', 'hall', 'stair', 'back'],
        line: "The hallway's this way. That's where Biscuit does his sliding.",
      },
      {
        cues: ['measure', 'measurement', 'tape', 'square', 'size'],
        line: "Sure, measure whatever you need. I'll move the boxes out of your way.",
      },
    ],
  },
  General: {
    card: p.General,
    voice: 'en-us+m1',
    rate: 170,
    pitch: 50,
    household: {
      homeAgeYears: 25,
      problem:
        'a list of small things, a sticking back door, an old deck that needs work, and a bathroom fan that rattles',
      budget: 'maybe five thousand for this year, we put a little aside',
      timeline: 'over the summer, no big rush',
      decider: 'my wife Susan and me, we do everything together',
      spouseName: 'Susan',
      spouseRole: 'wife',
      quoteAmount: null,
      competingQuote: 'a handyman from church gave us a rough number for the deck',
      wishes: 'the deck boards replaced first, then the door and the fan',
      budgetRange: [4000, 5000],
      said: {
        problem: [
          "a few small jobs: a sticking back door, a deck that's old and soft in places, and a bathroom fan that rattles",
          "the usual list: a sticking back door, a deck that's past its best, and a rattly bathroom fan",
          'a sticking back door, a tired old deck, and a bathroom fan that sounds like a helicopter',
        ],
        budget: ['about five thousand this year. We set a little aside', 'five thousand or so for this year'],
        timeline: ['sometime this summer. No big rush', "over the summer. We're in no hurry"],
      },
    },
    temperament: {
      ramblingWords: 120,
      startTrust: 5,
      needsToClose: 2,
      trustToClose: 5,
      demandsProof: false,
      chatty: true,
    },
    openings: [
      "Well hi there! Nice day, isn't it? What can I do for you?",
      "Hello! Come on up, don't mind the dog, he's friendly. What brings you by?",
      'Oh, hi! Are you the one who called about the house?',
    ],
    needs: [
      {
        topic: 'home',
        minTrust: 1,
        reveal: ["We've been here {homeAgeYears} years. Raised both kids in this house."],
        guarded: ["It's an old friend, this house."],
        more: ["The kids are grown and gone now, so it's just us and the dog."],
      },
      {
        topic: 'problem',
        minTrust: 2,
        reveal: [
          "Oh, there's {problem}. Susan has a list on the fridge.",
          "Well, there's {problem}. It's all on Susan's list.",
        ],
        guarded: ['Oh, a little bit of everything.'],
        more: [
          "The back door sticks worst when it's humid. Susan has to shoulder it open.",
          "A couple of the deck boards are soft near the steps. I'm worried someone will go through.",
          'The deck has been going soft for a couple of years. Last spring a board cracked under me.',
          "The bathroom fan rattles like a helicopter. It still works, it's just loud.",
          "The bills are alright. It's all the little things adding up.",
          'I do the upkeep myself, mostly. The deck got stained once, five years back.',
        ],
      },
      {
        topic: 'budget',
        minTrust: 3,
        reveal: ["We've got {budget}."],
        guarded: ["We'd have to see. Depends on the job."],
        more: ['If the deck takes most of it, the other things can wait till next year.'],
      },
      {
        topic: 'timeline',
        minTrust: 2,
        reveal: ['Oh, {timeline}.'],
        guarded: ['Whenever, really.'],
        more: ["Our grandson's birthday party is in August, out on the deck. That would be nice."],
      },
      {
        topic: 'decision',
        minTrust: 2,
        reveal: ["That'd be {decider}."],
        guarded: ["We'd both want to talk about it."],
        more: ["Susan will want to meet whoever does the work. She's good at reading people."],
      },
      {
        topic: 'quotes',
        minTrust: 3,
        reveal: ['Well, {competingQuote}.'],
        guarded: ['We asked around a bit.'],
        more: [
          "He said around three thousand for the deck, but he's booked up till fall.",
          "He's a nice fellow, but he doesn't do doors or electrical.",
        ],
      },
      {
        topic: 'priorities',
        minTrust: 2,
        reveal: ["Honestly, I'd love to sit out on that deck again without worrying about the boards."],
        guarded: ['Just keeping the old place in shape.'],
        more: ['Safety first. The deck steps, really. Then the rest.'],
      },
      {
        topic: 'product',
        minTrust: 2,
        reveal: ["Well, I'd want {wishes}."],
        guarded: ["What I'd want done? Oh, whatever makes sense, I suppose."],
        more: ["Nothing fancy on the deck. Just boards that don't rot."],
      },
    ],
    objections: {
      price: ["Oh boy, that's a bit more than we figured. Is there a way to do it in pieces?"],
      trust: ['How long has your company been around? I like to know who I am dealing with.'],
      timing: ["We're not in a big hurry. Maybe after the summer?"],
      spouse: ["I'd want to talk to {spouseName} first, she's the planner in this house."],
      competitor: ["The handyman from church said he'd do the deck cheaper, I think."],
    },
    signatureObjection: 'spouse',
    agree: [
      "You know what, that sounds good. Why don't you come by Saturday when {spouseName} is home and we'll go through the list together?",
      "Sure, let's do it. Tuesday afternoon works, {spouseName} will be here too.",
    ],
    notYet: [
      "Oh, slow down, we're just getting to know each other!",
      "Well, I'm not sure yet. Tell me a bit more first.",
    ],
    pressured: ['Whoa, now. No need to rush me, friend.'],
    pressuredAgain: ["I think I'll pass. I don't like being pushed, even nicely."],
    cutShort: ["Ha, you've got a lot to say! So what would you do first?"],
    nudges: [
      'So what kind of work do you usually do?',
      'How long have you been doing this? You seem young for it!',
      'Oh, interesting. Go on.',
    ],
    warmed: ["Well, that's nice of you to say.", "Ha, I appreciate that. You're easy to talk to."],
    greeted: [
      "Nice to meet you! I'm Tom. Come on, what can I do for you?",
      "Well hello, I'm Tom. Beautiful day for walking around, huh?",
    ],
    proofAccepted: ["Oh, that's good to hear. Susan always asks about that stuff."],
    pitchReaction: ['Oh, neat. How does that work?'],
    life: {
      kids: {
        answer: ["Two, both grown. Our daughter's out in Denver, and our son's just across town."],
        more: [
          "Our daughter's thirty-eight and our son's thirty-five. Makes me feel old!",
          "And a grandson now. He'll be six in August, and he runs this place when he visits.",
        ],
      },
      work: {
        answer: ["Oh, I'm retired! I taught shop class at the high school for thirty-one years."],
        more: ["I still putter in the garage. I just don't do ladders anymore."],
      },
      pets: {
        answer: ["That's Buster. He's twelve and still thinks he's a puppy."],
        more: ["He's a mutt from the shelter. Best dog we ever had."],
      },
      leisure: {
        answer: ['Fishing, mostly. And {spouseName} keeps me busy in the garden.'],
        more: ["I'd fish every day if she let me. There's a lake twenty minutes up the road."],
      },
      roots: {
        answer: ["Born here, never left! {spouseName}'s from up north."],
        more: ['Most of my family is still within ten miles of here.'],
      },
      spouse: {
        answer: ['{spouseName} was a nurse, and she still knows everybody in town.'],
        more: ['Forty-four years married this June! We met at a church picnic, if you can believe it.'],
      },
    },
    claim: {
      minTrust: 0,
      answer: ["No, nothing insurance would cover. It's all wear and tear, the deck most of all."],
      more: ['We pay for the house ourselves. Always have.'],
      guarded: [],
    },
    schedule: {
      suits: [
        'monday',
        'tuesday',
        'wednesday',
        'thursday',
        'friday',
        'saturday',
        'morning',
        'afternoon',
        'evening',
        'tomorrow',
        'weekend',
      ],
      free: [
        "We're retired, so most days. {spouseName} has her book club Thursday mornings.",
        'Anytime, really. Mornings are nice, before it gets hot on the deck.',
      ],
      now: [
        "Susan's just out at the shops, back in an hour or so.",
        "Susan's around somewhere, probably in the garden.",
      ],
      counter: [
        "Oh, {spouseName}'s out then. How about the next morning instead?",
        "That one's tricky. Any other morning is fine.",
      ],
    },
    thingAge: [
      'The deck? About twenty-five years. We built it the summer we moved in.',
      "Twenty-five years. It's seen a lot of barbecues.",
    ],
    thingAgeFact: 'the deck is about twenty-five years old',
    found: [
      'Our neighbour had his fence done by you folks. Said you were straight shooters.',
      '{spouseName} looked you up after that. The reviews were good.',
    ],
    spots: [
      {
        cues: ['deck', 'back', 'outside', 'step', 'board', 'yard'],
        line: "Sure, come on out back. Watch the steps, that's the soft part.",
      },
      {
        cues: ['door', 'kitchen'],
        line: "Back door's through the kitchen. Give it a shove, you'll see what {spouseName} means.",
      },
      {
        cues: ['fan', 'bathroom', 'upstairs'],
        line: "Bathroom's upstairs on the left. Flip the fan on and listen to that racket.",
      },
      {
        cues: ['around', 'house', 'everything', 'list', 'place'],
        line: "Sure, look around all you like. I'd start with the deck, that's the big one.",
      },
    ],
  },
};

/** Persona facts with placeholders filled from the household facts. */
/** How the persona sounds, handed to text-to-speech as data. */
/**
 * Each homeowner's Flite voice, all five distinct (docs/benchmarks.md, "Offline voices"): the
 * two women share Flite's one female voice, Priya a step higher; the men are three speakers.
 */
export const PERSONA_FLITE_VOICES: Record<Stage, FliteVoice> = {
  Windows: { voice: 'slt' },
  HVAC: { voice: 'rms', rate: 1.1 },
  Roofing: { voice: 'awb', pitchShift: 0.94, rate: 0.92 },
  Flooring: { voice: 'slt', pitchShift: 1.08 },
  General: { voice: 'kal16' },
};

export function personaVoice(stage: Stage): VoiceStyle {
  const f = PERSONA_FACTS[stage];
  return {
    espeakVoice: f.voice,
    rate: f.rate,
    pitch: f.pitch,
    speaker: STAGES.indexOf(stage),
    flite: PERSONA_FLITE_VOICES[stage],
  };
}

/**
 * One call's homeowner: the persona with its problem, budget and timeline said one of their ways
 * (the same facts), chosen by the call's own random draw and kept for the whole call.
 */
export function personaForCall(facts: PersonaFacts, random: () => number): PersonaFacts {
  const h = facts.household;
  const pick = (canonical: string, others: string[]) => {
    const all = [canonical, ...others];
    return all[Math.floor(random() * all.length)] ?? canonical;
  };
  return {
    ...facts,
    household: {
      ...h,
      problem: pick(h.problem, h.said.problem),
      budget: pick(h.budget, h.said.budget),
      timeline: pick(h.timeline, h.said.timeline),
    },
  };
}

export function fillFacts(text: string, facts: PersonaFacts): string {
  const h = facts.household;
  const values: Record<string, string> = {
    homeAgeYears: String(h.homeAgeYears),
    problem: h.problem,
    budget: h.budget,
    timeline: h.timeline,
    decider: h.decider,
    spouseName: h.spouseName,
    competingQuote: h.competingQuote,
    wishes: h.wishes,
    name: facts.card.name,
  };
  // A fact placed at the start of a sentence needs a capital letter.
  return capitaliseSentences(fillTemplate(text, values));
}
