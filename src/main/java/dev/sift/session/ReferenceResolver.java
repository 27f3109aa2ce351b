package dev.sift.session;

import dev.sift.data.TableInfo;

import java.util.List;

/** Classifies a turn and resolves its references against the earlier turns of the session's thread. */
public interface ReferenceResolver {
    Resolution resolve(String question, List<Turn> thread, List<TableInfo> tables);
}
