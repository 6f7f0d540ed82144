package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An index on disk of another format (before the thread field) is rebuilt; one of this format is kept. */
class LuceneIndexFormatTest {

    @TempDir
    Path dir;

    private void commitRaw(Map<String, String> data) throws Exception {
        try (FSDirectory d = FSDirectory.open(dir);
             IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new StandardAnalyzer()))) {
            Document doc = new Document();
            doc.add(new StringField("key", "t\u0000r\u00001", Field.Store.NO));
            w.addDocument(doc);
            w.setLiveCommitData(data.entrySet());
            w.commit();
        }
    }

    @Test
    void anIndexWithoutItsFormatIsRebuiltEmpty() throws Exception {
        commitRaw(Map.of(LuceneIndex.roomKey("t", "r"), "5"));
        try (LuceneIndex index = LuceneIndex.open(dir)) {
            assertEquals(Map.of(), index.indexedRevs(), "caught up from the messages from rev 0");
        }
    }

    @Test
    void anIndexOfThisFormatIsKept() throws Exception {
        commitRaw(Map.of(LuceneIndex.roomKey("t", "r"), "5", LuceneIndex.FORMAT_KEY, LuceneIndex.FORMAT));
        try (LuceneIndex index = LuceneIndex.open(dir)) {
            assertEquals(Map.of(LuceneIndex.roomKey("t", "r"), 5L), index.indexedRevs());
        }
    }
}
