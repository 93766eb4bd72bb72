/**
 * What in a customer's message is its frame rather than its subject: function words, the
 * words every question carries ("can you tell me"), greetings and thanks around the question,
 * and the pieces of contractions typed with or without their apostrophe ("don't" reads as
 * "don" and "t", or "dont"). None of these is searched for: a passage holding "good" or
 * "morning" is no closer to "good morning, do you cater lunches?".
 */

const STOP_WORDS = new Set(
  // English function words, and the words every customer question carries.
  (
    'a about after again all also am an and any anything are as at be been before being but by ' +
    'can cant could did do does doing dont for from get got had has have having he her here hi ' +
    'hello hey him his how i id if im in into is it its ive just know let like me might more most ' +
    'much my need no not now of off on once one only or other our ours out please so some such ' +
    'tell than thank thanks that the their them then there these they this those to too up us ' +
    'very want was way we were what whats when where which while who whom why will with would ' +
    'wondering yes you your youre yours mine hers theirs ' +
    // Their other forms, and contractions as typed without an apostrophe or cut at it.
    'gets getting gotten goes went gone done needs needed wants wanted knows tells told says ' +
    'lets likes wont won isnt isn arent aren doesnt doesn didnt didn hasnt hasn havent haven ' +
    'wasnt wasn werent weren couldnt couldn wouldnt wouldn shouldnt shouldn don cannot hows ' +
    'wheres whens whos theres thats ill ll ve re ' +
    // The frame of a question rather than its subject.
    'able allowed any anyone anything available bring come else even ever far get give go going ' +
    'guys kind long lot make many may much must often ok okay pls plz possible provide really ' +
    'right shall should sure happen happens happened bringing ' +
    'someone something soon thing things u ur ' +
    'actually already anyway around best certain exactly maybe offer offers own perhaps still ' +
    'looking interested wonder curious hoping planning ' +
    // Greetings and thanks that stand alone.
    'hiya heya greetings cheers thx ty dear regards sorry excuse ' +
    // Spanish.
    'al algo como con cual cuando cuanto de del donde el ella en es esta estan este hay hola la ' +
    'las le les lo los me mi mis mucho muy no nos o para pero por puede pueden puedo que quien ' +
    'se si sin su sus te tengo tienen tiene tu un una uno unos usted ustedes y ya yo'
  ).split(' '),
);

/** Greetings and openers whose words alone may be a subject ("morning" deliveries). */
const GREETINGS =
  /\bgood (morning|afternoon|evening|day)\b|\b(hi|hello|hey) there\b|\b(quick question|i have a question)\b/g;

/** Whether a folded word of a question is frame, never a key. */
export function isFrameWord(word: string): boolean {
  return STOP_WORDS.has(word) || (word.length < 2 && !/\p{N}/u.test(word));
}

/** The folded words of a question without the greetings it opens or closes with. */
export function withoutGreetings(folded: string[]): string[] {
  return folded.join(' ').replace(GREETINGS, ' ').split(' ').filter(Boolean);
}
