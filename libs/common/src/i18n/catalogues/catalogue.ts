/** A language's translations of the service's English templates (the keys of Message). */
export type Catalogue = Readonly<Record<string, string>>;
