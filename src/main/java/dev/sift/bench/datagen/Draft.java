package dev.sift.bench.datagen;

import dev.sift.bench.suite.Suite;

import java.util.List;

/**
 * One generated question before its gold query has run: the template that made it, its wordings (the first is the
 * plain one; see {@link Wordings#LABELS}), the gold query and how an answer is scored against it.
 * {@code tieCheck}, when set, is a query whose result must have no tie at the cut for the item to be kept
 * (a top-N or a comparison whose answer would otherwise be a coin toss).
 */
record Draft(String template, List<String> wordings, String goldSql, Suite.Tier tier, Suite.Scoring scoring,
             String tieCheck) {
    Draft {
        if (wordings.size() != Wordings.LABELS.size()) {
            throw new IllegalArgumentException("a draft has " + Wordings.LABELS.size() + " wordings, got " + wordings.size());
        }
    }

    static Draft analytic(String template, List<String> wordings, String goldSql) {
        return new Draft(template, wordings, goldSql, Suite.Tier.ANALYTIC, Suite.Scoring.ROW_SET, null);
    }

    Draft numeric() {
        return new Draft(template, wordings, goldSql, tier, Suite.Scoring.NUMERIC, tieCheck);
    }

    Draft tieChecked(String sql) {
        return new Draft(template, wordings, goldSql, tier, scoring, sql);
    }
}
