package dev.sift.session;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Classifies a turn by rule: {@code abandon} when it opens by dropping the thread ("never mind", "forget
 * that", "start over"), {@code refine} when it leans on an earlier turn (a reference word such as "those",
 * "them", "their", "it", "the same", an opening such as "and", "what about", "only", or a short phrase that only
 * changes the time, a filter or the grouping: "in 1997?", "for Prague?"), otherwise {@code new}. The
 * first turn of a session is always {@code new}. A model, when configured, may overrule it (see
 * {@link LlmReferenceResolver}).
 */
public final class TurnClassifier {
    static final Pattern ABANDON = Pattern.compile("^\\s*(never\\s*mind|forget\\s+(it|that|this|those|about\\s+that)"
            + "|scratch\\s+that|start\\s+over|let'?s\\s+start\\s+over|new\\s+question|different\\s+question"
            + "|something\\s+else|cancel\\s+that|drop\\s+that)\\b[\\s,.;:!—–-]*", Pattern.CASE_INSENSITIVE);
    static final Pattern OPENING = Pattern.compile("^\\s*(and|but|now|then|also|what\\s+about|how\\s+about|only|just"
            + "|same|instead|break\\s+(it|that|them)\\s+down|by)\\b", Pattern.CASE_INSENSITIVE);
    /** A short phrase that only changes the time, filter or grouping of the turn before ("in 1997?", "for Prague?"). */
    static final Pattern ELLIPSIS = Pattern.compile("^\\s*(in|for|during|from|between|before|after|since|per|with|without"
            + "|among|excluding)\\b", Pattern.CASE_INSENSITIVE);
    static final Pattern REFERENCE = Pattern.compile("\\b(those|these|them|they|their|it|its|that\\s+one|the\\s+same"
            + "|same\\s+thing|of\\s+which|among\\s+them|the\\s+previous|the\\s+last\\s+one|the\\s+above)\\b",
            Pattern.CASE_INSENSITIVE);

    /** A request to change data: refused whatever it refers to, so it never merges into the question before. */
    static final Pattern CHANGE = Pattern.compile("(?i)^\\s*(set|delete|drop|insert|update|remove|truncate|alter|change"
            + "|modify|overwrite|erase|export|write)\\b");
    /** The other end or another aggregate of the measure before ("and the smallest?", "the average?"). */
    static final Pattern OTHER_MEASURE = Pattern.compile("(?i)^\\s*(?:and\\s+|but\\s+)?(?:what\\s+about\\s+|how\\s+about\\s+)?"
            + "(?:the\\s+)?(smallest|largest|lowest|highest|biggest|minimum|maximum|average|mean|median|total)[\\s?.!]*$");
    /** A short phrase with a time in it and no question word ("issued in 1997?", "granted after 1996?"). */
    static final Pattern TIMED = Pattern.compile("(?i)^\\s*\\p{L}+\\s+(?:in|during|before|after|since)\\s+(?:1[89]|20)\\d\\d[\\s?.!]*$");
    /** A request to draw the result before ("show that as a chart", "plot it", "as a bar chart?"). */
    static final Pattern CHART_THAT = Pattern.compile("(?i)^(?:(?:can|could)\\s+you\\s+)?(?:please\\s+)?(?:(?:show|plot|chart"
            + "|graph|draw|visuali[sz]e|display|make)\\s+(?:me\\s+)?(?:that|this|it|those|these|them|the\\s+same)\\b"
            + "|(?:as|in)\\s+an?\\s+(?:\\p{L}+\\s+)?(?:chart|graph|plot)\\b)");

    /** The classification and, for {@code abandon}, the question that follows the dropping phrase. */
    public record Verdict(TurnKind kind, String question, String marker) { }

    public Verdict classify(String question, List<Turn> thread) {
        Matcher a = ABANDON.matcher(question);
        if (a.find()) {
            return new Verdict(TurnKind.ABANDON, question.substring(a.end()).trim(), a.group(1).toLowerCase(Locale.ROOT));
        }
        if (thread.isEmpty()) {
            return new Verdict(TurnKind.NEW, question, null);
        }
        if (CHANGE.matcher(question).find()) {
            return new Verdict(TurnKind.NEW, question, null);
        }
        if (OTHER_MEASURE.matcher(question).find() || TIMED.matcher(question).find()) {
            return new Verdict(TurnKind.REFINE, question, "measure or time");
        }
        Matcher chart = CHART_THAT.matcher(question);
        if (chart.find()) {
            return new Verdict(TurnKind.REFINE, question, "chart");
        }
        Matcher o = OPENING.matcher(question);
        if (o.find()) {
            return new Verdict(TurnKind.REFINE, question, o.group(1).toLowerCase(Locale.ROOT));
        }
        Matcher e = ELLIPSIS.matcher(question);
        if (e.find() && question.trim().split("\\s+").length <= 5) {
            return new Verdict(TurnKind.REFINE, question, e.group(1).toLowerCase(Locale.ROOT));
        }
        Matcher r = REFERENCE.matcher(question);
        if (r.find()) {
            return new Verdict(TurnKind.REFINE, question, r.group(1).toLowerCase(Locale.ROOT));
        }
        return new Verdict(TurnKind.NEW, question, null);
    }
}
