import { parseParams, renderTemplate } from './render-template';

describe('renderTemplate', () => {
  it('replaces {{name}} placeholders (spaces inside the braces allowed) with the parameters', () => {
    expect(renderTemplate('Hello {{name}}, code {{ code }}.', { name: 'Alice', code: 4711 }, 'text')).toBe('Hello Alice, code 4711.');
  });

  it('renders a missing or null parameter as nothing and other values as JSON', () => {
    expect(renderTemplate('[{{gone}}][{{nothing}}][{{list}}][{{ok}}]', { nothing: null, list: [1, 'a'], ok: true }, 'text')).toBe(
      '[][][[1,"a"]][true]',
    );
  });

  it('escapes parameter values in HTML, never the template markup', () => {
    expect(renderTemplate('<p>Hi {{name}}</p>', { name: '<script>alert("x")</script> & \'co\'' }, 'html')).toBe(
      '<p>Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>',
    );
    expect(renderTemplate('{{name}}', { name: '<b>' }, 'text')).toBe('<b>');
  });

  it('does not read inherited properties', () => {
    expect(renderTemplate('{{constructor}}{{toString}}', {}, 'text')).toBe('');
  });
});

describe('parseParams', () => {
  it('takes a JSON object, and nothing from anything else', () => {
    expect(parseParams('{"code":"1"}')).toEqual({ code: '1' });
    for (const text of [null, undefined, '', '[1,2]', '"x"', '3', 'not json']) expect(parseParams(text)).toEqual({});
  });
});
