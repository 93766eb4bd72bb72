import { readableText } from './readable-text';

describe('readable text of a page', () => {
  it('keeps the title and the article as paragraphs, without navigation, header, footer, scripts or styles', () => {
    const html = `<html><head><title>Ferry</title><style>p { color: red }</style></head><body>
      <nav><a href="/">Home</a><a href="/about">About</a></nav><header>Logo and slogan</header>
      <main><h1>Timetable</h1><p>The first ferry leaves at 7:40.</p>
      <ul><li>Bikes ride free.</li><li>Dogs on a leash.</li></ul>
      <table><tr><td>Adult</td><td>12 euros</td></tr></table></main>
      <footer>Copyright and cookies</footer><script>track('visit')</script></body></html>`;
    expect(readableText(html)).toBe(
      [
        'Ferry',
        'Timetable',
        'The first ferry leaves at 7:40.',
        'Bikes ride free.',
        'Dogs on a leash.',
        'Adult 12 euros',
      ].join('\n\n'),
    );
  });

  it('gives nothing for a page of furniture only, and reads a fragment as a page', () => {
    expect(readableText('<nav>Home</nav><footer>Copyright</footer>')).toBe('');
    expect(readableText('<p>Open daily.</p><p>Closed in August.</p>')).toBe(
      'Open daily.\n\nClosed in August.',
    );
  });
});
