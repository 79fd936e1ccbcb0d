import type { TranscriptEntry } from './transcript';

/**
 * A canned five-minute Windows role-play (rep and Linda at the kitchen table), used by the
 * debug page to build a sample session end to end. Offsets are seconds from the call start.
 */
const LINES: [number, 'user' | 'assistant', string][] = [
  [0, 'assistant', "Come on in. I'm Linda. Sorry about the mess, we just finished dinner."],
  [
    5,
    'user',
    "No problem at all, Linda. Thanks for having me. I'm Sam with Doorstep Windows. Is it alright if we sit at the kitchen table?",
  ],
  [
    13,
    'assistant',
    "Sure, have a seat. I'll be honest, we already had someone out last week and I'm not sure what you can tell me that they didn't.",
  ],
  [
    23,
    'user',
    "That's fair, and I appreciate you telling me. Before I show you anything, what got you looking at windows in the first place?",
  ],
  [
    32,
    'assistant',
    'The bedroom windows fog up between the panes every winter, and the living room is drafty. You can feel the cold air by the couch.',
  ],
  [42, 'user', 'How long has that been going on?'],
  [
    45,
    'assistant',
    'Probably three winters now. The house was built in ninety-four and I think these are the original windows.',
  ],
  [53, 'user', "And when it's drafty like that, how does it affect the family day to day?"],
  [
    59,
    'assistant',
    'Nobody sits in the living room in January. And our heating bill last February was almost four hundred dollars.',
  ],
  [
    68,
    'user',
    'Four hundred dollars a month is a lot. If you could change anything about how the house feels, what would it be?',
  ],
  [
    76,
    'assistant',
    "I'd want to be able to sit by the window with my coffee and not need a blanket. And I'd like the bills to come down.",
  ],
  [
    86,
    'user',
    'Comfort and lower bills. Is there anything else that matters, like how they look or how easy they are to clean?',
  ],
  [
    94,
    'assistant',
    "Cleaning, yes. I can't reach the outside of the upstairs ones, so they never get cleaned.",
  ],
  [
    101,
    'user',
    'Got it. How many windows are you thinking about, the whole house or just the problem rooms?',
  ],
  [
    108,
    'assistant',
    "The other company quoted all fourteen. It was around eleven thousand for vinyl, which felt like a lot, but you're probably more.",
  ],
  [
    119,
    'user',
    "I can't say until I measure, but can I ask what you liked and didn't like about their proposal?",
  ],
  [
    126,
    'assistant',
    "The salesman was nice, but he couldn't tell me why his windows were better than the ones at the home store.",
  ],
  [
    135,
    'user',
    "That's a great question to ask anyone. Let me show you the difference in the frame. This corner is welded, not screwed, and the glass has two coatings that reflect heat back into the room.",
  ],
  [
    150,
    'assistant',
    'Okay, but does that actually make a difference on the bill, or is that just a sales line?',
  ],
  [
    157,
    'user',
    "It's a fair challenge. Homes like yours usually see heating costs drop fifteen to twenty-five percent. I can leave you the energy ratings so you can compare them side by side.",
  ],
  [170, 'assistant', "I'd like that. My husband will want to see numbers."],
  [
    175,
    'user',
    'Would it make sense to look at three options, a good, better and best, so you can pick what fits the budget?',
  ],
  [183, 'assistant', "Sure, as long as you're not going to pressure me into the most expensive one."],
  [
    189,
    'user',
    "Not at all. Most people in your situation pick the middle one, but it's your home. The tilt-in sashes on all three solve the cleaning problem upstairs.",
  ],
  [
    201,
    'assistant',
    'Tilt-in would be nice. What about the warranty? The other company said lifetime but the fine print was confusing.',
  ],
  [
    211,
    'user',
    "Ours is lifetime on the frame, glass and labour, and it transfers if you sell. I'll highlight the two lines that matter so there's no fine print surprise.",
  ],
  [223, 'assistant', "Okay. I still think you'll be more than eleven thousand though."],
  [
    229,
    'user',
    "If the numbers come in higher, would you still want to see why, so you can decide if it's worth it?",
  ],
  [236, 'assistant', "I suppose. I just don't want to make a decision tonight without talking to Mark."],
  [
    243,
    'user',
    'That makes complete sense. When is Mark usually home so I can walk you both through the options together?',
  ],
  [251, 'assistant', 'He gets home around six most nights. Thursday would probably work.'],
  [
    257,
    'user',
    "Let's pencil in Thursday at six-thirty. I'll measure tonight, email the three options tomorrow, and text you Wednesday to confirm. Does that work?",
  ],
  [270, 'assistant', 'That works. Send the energy ratings too.'],
  [275, 'user', "Will do. Before I measure, is there any window you'd want us to look at first?"],
  [282, 'assistant', "Start with the bedroom on the left, that one's the worst."],
  [288, 'user', "Perfect. Thank you for your time tonight, Linda. I'll be quick and I'll take my shoes off."],
  [296, 'assistant', "Thanks Sam. Watch the dog's water bowl on the way up."],
];

export const DEBUG_TRANSCRIPT_DURATION_SEC = 300;

/** The canned transcript with timestamps starting at `startMs` (milliseconds since epoch). */
export function debugTranscript(startMs: number): TranscriptEntry[] {
  return LINES.map(([offsetSec, role, transcript]) => ({
    role,
    transcript,
    timestamp: startMs + offsetSec * 1000,
    transcriptType: 'final',
  }));
}
