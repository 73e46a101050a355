import type { ReactNode } from 'react';

// A conversation's degraded evidence at the top of its page, in one frame for every kind: a heading
// that says what is incomplete, in the store's words, then each reason as a point of a list, in the
// core's words with where it rests (files, lines, stretches of a seat file), each also in its place.

export function DegradedBanner({ label, heading, children }: { label: string; heading: string; children: ReactNode }) {
  return (
    <section className="banner banner-degraded" role="region" aria-label={label}>
      <h2>{heading}</h2>
      <ul>{children}</ul>
    </section>
  );
}
