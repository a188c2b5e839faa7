import { parse } from './parse.ts';
import type { Topic } from './types.ts';

// The broad topic a claim is filed under (classify.ts reads its type and due date).

/**
 * Topic lexicon: lemmas (compromise's root form, else the normalised word) that
 * place a sentence under a topic. Small on purpose: a sentence is filed under the
 * topic with most hits, ties going to the earlier topic, and `other` when none hit.
 */
export const TOPIC_LEXICON: Readonly<Record<Exclude<Topic, 'other'>, readonly string[]>> = {
  economy: ['economy', 'inflation', 'unemployment', 'employment', 'job', 'wage', 'gdp', 'recession', 'tax', 'income', 'salary', 'debt', 'deficit', 'pension', 'growth', 'price', 'bill', 'cost'],
  health: ['health', 'hospital', 'patient', 'vaccine', 'vaccination', 'vaccinate', 'measles', 'flu', 'disease', 'doctor', 'nurse', 'admission', 'illness', 'infection', 'antibiotic', 'cancer', 'fever', 'clinic', 'death', 'medicine', 'drug', 'obesity', 'dose', 'hand', 'soap'],
  environment: ['environment', 'emission', 'pollution', 'carbon', 'climate', 'leakage', 'river', 'reservoir', 'drought', 'sewage', 'temperature', 'heat', 'flood', 'recycling', 'waste', 'wildlife', 'air', 'water', 'energy', 'gas', 'pipe', 'leak', 'hosepipe', 'litre', 'supply'],
  technology: ['technology', 'software', 'internet', 'broadband', 'digital', 'ai', 'app', 'computer', 'cyber', 'online', 'meter', 'data', 'website'],
  science: ['science', 'research', 'study', 'scientist', 'trial', 'dataset', 'experiment', 'laboratory', 'journal', 'volunteer', 'result', 'evidence'],
  education: ['school', 'pupil', 'student', 'teacher', 'university', 'college', 'exam', 'education', 'classroom', 'apprenticeship'],
  public_safety: ['crime', 'burglary', 'police', 'fire', 'accident', 'safety', 'violence', 'theft', 'emergency', 'injury', 'scam', 'fraud'],
  governance: ['council', 'government', 'minister', 'election', 'mayor', 'parliament', 'law', 'regulation', 'regulator', 'policy', 'audit', 'transparency', 'vote', 'councillor', 'ombudsman', 'fine'],
  media: ['newspaper', 'article', 'journalist', 'reader', 'paywall', 'correction', 'newsroom', 'coverage', 'broadcast', 'media', 'subscriber', 'editor', 'story', 'circulation', 'copy'],
  business: ['revenue', 'profit', 'customer', 'company', 'shareholder', 'investment', 'invest', 'sale', 'market', 'firm', 'dividend', 'share', 'satisfaction', 'contract'],
  transport: ['bus', 'tram', 'train', 'rail', 'road', 'traffic', 'bridge', 'driver', 'car', 'passenger', 'journey', 'cycling', 'airport', 'ridership', 'transport', 'pothole', 'fare'],
  housing: ['house', 'home', 'rent', 'housing', 'tenant', 'mortgage', 'landlord', 'property', 'homelessness', 'household'],
};

export function topicOf(sentence: string): Topic {
  const doc = parse(sentence);
  doc.compute('root');
  const lemmas = (doc.json() as Array<{ terms: Array<{ normal: string; root?: string }> }>).flatMap((m) => m.terms).map((t) => t.root ?? t.normal.replace(/[^\p{L}\p{N}-]/gu, ''));
  let best: Topic = 'other';
  let bestHits = 0;
  for (const [topic, words] of Object.entries(TOPIC_LEXICON) as Array<[Topic, readonly string[]]>) {
    const hits = lemmas.filter((l) => words.includes(l)).length;
    if (hits > bestHits) [best, bestHits] = [topic, hits];
  }
  return best;
}
