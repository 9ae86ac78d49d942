/**
 * Swagger UI's tag filter as operators use it, through Swagger UI's public plugin API: a plugin whose
 * `fn.opsFilter` keeps the tags that contain the phrase in any case ("Email", "email" and "MAIL" all find
 * `message: email-...`), and a wrapped `operations` component that says "No tag matches" when none does, instead of
 * the empty "No operations defined in spec!" page. Swagger UI 5's own filter is case-sensitive.
 *
 * The plugin is page JavaScript: served as an inline script of the Swagger UI page (NestJS's `customJsStr`), which
 * runs before Swagger UI's set-up and leaves the plugin at `window.backOfficeTagFilter`; the set-up names it among
 * its `plugins` (setup.ts). It is written as ES5 text, not as compiled TypeScript, so what runs in the browser is
 * exactly what is here.
 */

/** The global the page script leaves the plugin at. */
export const TAG_FILTER_GLOBAL = 'backOfficeTagFilter';

/** The text a page shows when no tag contains the phrase; `{phrase}` is the filter as typed. */
export const NO_TAG_MATCHES = 'No tag matches "{phrase}"';

/** The page script: defines the plugin, touching nothing else. */
export const TAG_FILTER_SCRIPT = `
(function () {
  'use strict';
  var NO_TAG_MATCHES = ${JSON.stringify(NO_TAG_MATCHES)};
  function wanted(phrase) {
    return String(phrase).trim().toLowerCase();
  }
  /** The tags (an Immutable map, tag to its operations) whose name contains the phrase in any case. */
  function opsFilter(taggedOps, phrase) {
    var part = wanted(phrase);
    return taggedOps.filter(function (_ops, tag) {
      return String(tag).toLowerCase().indexOf(part) !== -1;
    });
  }
  window.${TAG_FILTER_GLOBAL} = function (system) {
    return {
      fn: { opsFilter: opsFilter },
      wrapComponents: {
        operations: function (Operations, sys) {
          return function TagFilteredOperations(props) {
            var phrase = sys.layoutSelectors.currentFilter();
            var filtering = typeof phrase === 'string' && wanted(phrase) !== '';
            if (filtering && sys.specSelectors.taggedOperations().size === 0)
              return system.React.createElement(
                'h3',
                { className: 'no-tag-matches' },
                NO_TAG_MATCHES.replace('{phrase}', phrase.trim())
              );
            return system.React.createElement(Operations, props);
          };
        },
      },
    };
  };
})();
`;

/**
 * An expression of the page, for Swagger UI's options: NestJS writes a function of `swaggerOptions` into
 * swagger-ui-init.js as its source text (`String(fn)`), so a function whose text is the expression becomes it.
 */
function pageExpression(text: string): () => void {
  const expression = () => undefined;
  expression.toString = () => text;
  return expression;
}

/**
 * Swagger UI's `plugins` with the tag filter: NestJS's default (the download-URL plugin, which an option's `plugins`
 * would otherwise replace) and ours.
 */
export const TAG_FILTER_PLUGINS = [pageExpression('SwaggerUIBundle.plugins.DownloadUrl'), pageExpression(`window.${TAG_FILTER_GLOBAL}`)];
