import { isFrameWord, withoutGreetings } from './question-frame';
import { searchKeys, words } from './search-terms';

const keysOf = (question: string) => searchKeys(question).map((key) => key.text);

describe('question frame', () => {
  it('drops the greetings and thanks around a question, not the words alone', () => {
    expect(withoutGreetings(words('Good morning, do you cater lunches? thanks!'))).toEqual([
      'do',
      'you',
      'cater',
      'lunches',
      'thanks',
    ]);
    expect(keysOf('good morning, can you cater lunches')).toEqual(['cater', 'lunch']);
    expect(keysOf('hi there, do you deliver in the morning?')).toEqual(['deliv', 'morn']);
    expect(keysOf('cheers, is the evening menu good')).toEqual(['even', 'menu', 'good']);
    expect(keysOf('quick question: are you looking for staff?')).toEqual(['staf']);
    expect(keysOf('how quick is the repair')).toEqual(['repair', '?duration']);
  });

  it('drops contractions typed with or without their apostrophe', () => {
    expect(keysOf("what if I don't accept your quote")).toEqual(['accept', 'quot']);
    expect(keysOf('my laptop wont turn on')).toEqual(['laptop', 'turn']);
    expect(keysOf("we'll arrive late, isn't that a problem")).toEqual(['arriv', 'late', 'proble']);
  });

  it('drops the other forms of frame words, and keeps numbers of one digit', () => {
    expect(['gets', 'needs', 'certain', 'own'].every(isFrameWord)).toBe(true);
    expect(isFrameWord('4')).toBe(false);
    expect(keysOf('if water gets in is that covered')).toEqual(['water', 'cover']);
  });
});
