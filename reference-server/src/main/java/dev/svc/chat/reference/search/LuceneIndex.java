package dev.svc.chat.reference.search;

import dev.svc.chat.reference.model.Message;
import dev.svc.chat.reference.store.OwnerOnlyFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * The search index of the memory and SQLite backends: Apache Lucene, in memory or in a directory. Each message is
 * one document (its current state; a deleted message has none) whose words are those of {@link Words}; a
 * search reopens the reader first, so a message is found as soon as its write returned. In a directory the
 * index commits at most every {@link #commitEvery} writes' interval and at close, recording with each commit
 * the rev of every room it holds ({@link #indexedRevs()}), from which {@link IndexCatchUp} continues at start.
 */
public final class LuceneIndex implements SearchIndex {

    private static final Sort ORDER = new Sort(new SortField("t", SortField.Type.LONG, true),
            new SortField("seq", SortField.Type.LONG, true), new SortField("roomOrder", SortField.Type.STRING, true));

    /**
     * The commit data key of the index's format, beside the rooms' revs (whose keys hold a NUL). An index of
     * another format (one without the {@code thread} field: format 1) is rebuilt from the messages.
     */
    static final String FORMAT_KEY = "format";
    static final String FORMAT = "2";

    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final Map<String, Long> revs = new ConcurrentHashMap<>();
    /** The revision written of each message, by room ({@link #roomKey}); empty at start, as catch-up fills it. */
    private final Map<String, IndexedRevs> messageRevs = new ConcurrentHashMap<>();
    private final Map<String, Long> committedRevs;
    /** Whether the index was empty when opened: then {@link #messageRevs} knows every document it holds. */
    private final boolean fresh;

    private LuceneIndex(Directory directory) throws IOException {
        this.directory = directory;
        boolean existed = DirectoryReader.indexExists(directory);
        this.fresh = !existed;
        this.writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer())
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND));
        Map<String, Long> committed = new HashMap<>();
        String format = null;
        Iterable<Map.Entry<String, String>> data = writer.getLiveCommitData();
        if (data != null) {
            for (Map.Entry<String, String> e : data) {
                if (FORMAT_KEY.equals(e.getKey())) {
                    format = e.getValue();
                } else {
                    committed.put(e.getKey(), Long.parseLong(e.getValue()));
                }
            }
        }
        if (existed && !FORMAT.equals(format)) {
            writer.close();
            throw new IOException("a search index of another format (" + format + "): it is rebuilt");
        }
        this.committedRevs = Map.copyOf(committed);
        revs.putAll(committed);
        this.searchers = new SearcherManager(writer, null);
    }

    /** Returns an index in memory (the memory backend: nothing to catch up). */
    public static LuceneIndex inMemory() {
        try {
            return new LuceneIndex(new ByteBuffersDirectory());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Opens the index in {@code dir}, creating it when missing; an index that cannot be opened (corrupt, of
     * another version) is deleted and made anew, empty, for {@link IndexCatchUp} to fill from the messages.
     */
    public static LuceneIndex open(Path dir) {
        try {
            // Owner-only as the rest of the data directory: the index holds the messages' words.
            OwnerOnlyFiles.createDirectory(dir);
            try {
                return new LuceneIndex(FSDirectory.open(dir));
            } catch (IOException | RuntimeException unreadable) {
                deleteTree(dir);
                OwnerOnlyFiles.createDirectory(dir);
                return new LuceneIndex(FSDirectory.open(dir));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the search index in " + dir, e);
        }
    }

    /** Returns the rev up to which each room ({@code tenantId + "\u0000" + roomId}) was in the last commit. */
    public Map<String, Long> indexedRevs() {
        return committedRevs;
    }

    static String roomKey(String tenantId, String roomId) {
        return tenantId + "\u0000" + roomId;
    }

    @Override
    public void written(String tenantId, Message message) {
        String key = roomKey(tenantId, message.roomId());
        Term id = new Term("key", key + "\u0000" + message.seq());
        List<MessageText.Positioned> words = MessageText.words(message);
        IndexedRevs indexed = messageRevs.computeIfAbsent(key, k -> new IndexedRevs());
        // The store commits one message's changes in rev order, but their calls here may cross: the check and
        // the write are one step, so an older revision never replaces a newer one (nor undoes a delete).
        synchronized (indexed) {
            long held = indexed.advance(message.seq(), message.rev());
            if (held < 0) {
                return;
            }
            // In an index made in this process every document went through here: one never written has none to
            // replace, and an add spares Lucene a delete by term, which each flush applies to every segment.
            boolean first = fresh && held == 0;
            try {
                if (words.isEmpty()) {
                    if (!first) {
                        writer.deleteDocuments(id);
                    }
                } else if (first) {
                    writer.addDocument(document(tenantId, message, id.text(), words));
                } else {
                    writer.updateDocument(id, document(tenantId, message, id.text(), words));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("search index: " + e.getMessage(), e);
            }
        }
        revs.merge(key, message.rev(), Math::max);
    }

    private static Document document(String tenantId, Message m, String key, List<MessageText.Positioned> words) {
        Document doc = new Document();
        long millis = m.createdAt().toEpochMilli();
        doc.add(new StringField("key", key, Field.Store.NO));
        doc.add(new StringField("tenant", tenantId, Field.Store.NO));
        doc.add(new StringField("room", m.roomId(), Field.Store.YES));
        doc.add(new SortedDocValuesField("roomOrder", new BytesRef(m.roomId())));
        doc.add(new StringField("sender", m.senderId(), Field.Store.NO));
        if (m.threadId() != null) {
            doc.add(new StringField("thread", m.threadId(), Field.Store.NO));
        }
        doc.add(new StoredField("id", m.id()));
        doc.add(new NumericDocValuesField("t", millis));
        doc.add(new StoredField("t", millis));
        doc.add(new NumericDocValuesField("seq", m.seq()));
        doc.add(new StoredField("seq", m.seq()));
        doc.add(new TextField("text", new WordStream(words)));
        return doc;
    }

    @Override
    public List<Hit> search(Request request) {
        BooleanQuery.Builder query = new BooleanQuery.Builder()
                .add(new TermQuery(new Term("tenant", request.tenantId())), BooleanClause.Occur.FILTER)
                .add(new TermInSetQuery("room", request.roomIds().stream().map(BytesRef::new).toList()),
                        BooleanClause.Occur.FILTER);
        if (request.senderId() != null) {
            query.add(new TermQuery(new Term("sender", request.senderId())), BooleanClause.Occur.FILTER);
        }
        if (request.threadId() != null) {
            query.add(new TermQuery(new Term("thread", request.threadId())), BooleanClause.Occur.FILTER);
        }
        for (SearchTerms.Term term : request.terms().terms()) {
            query.add(query(term), BooleanClause.Occur.FILTER);
        }
        try {
            searchers.maybeRefreshBlocking();
            IndexSearcher searcher = searchers.acquire();
            try {
                Position after = request.after();
                int lastDoc = searcher.getIndexReader().maxDoc() - 1;
                if (lastDoc < 0) {
                    return List.of();
                }
                // After the cursor's values, and after every document with those values: the position is the
                // last result's own, which the next page must not repeat.
                TopDocs top = after == null ? searcher.search(query.build(), request.max(), ORDER)
                        : searcher.searchAfter(new FieldDoc(lastDoc, Float.NaN, new Object[] {
                                after.createdAtMillis(), after.seq(), new BytesRef(after.roomId())}),
                        query.build(), request.max(), ORDER);
                List<Hit> hits = new ArrayList<>();
                for (ScoreDoc found : top.scoreDocs) {
                    Document doc = searcher.storedFields().document(found.doc);
                    hits.add(new Hit(doc.get("id"), new Position(doc.getField("t").numericValue().longValue(),
                            doc.getField("seq").numericValue().longValue(), doc.get("room"))));
                }
                return hits;
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("search index: " + e.getMessage(), e);
        }
    }

    private static Query query(SearchTerms.Term term) {
        if (term.prefix()) {
            return new PrefixQuery(new Term("text", term.words().get(0)));
        }
        if (!term.isPhrase()) {
            return new TermQuery(new Term("text", term.words().get(0)));
        }
        return new PhraseQuery("text", term.words().toArray(String[]::new));
    }

    /** Commits what was written, with the rev of every room written so far, if anything changed. */
    public void commit() {
        try {
            if (writer.hasUncommittedChanges()) {
                Map<String, String> data = new HashMap<>();
                revs.forEach((room, rev) -> data.put(room, Long.toString(rev)));
                data.put(FORMAT_KEY, FORMAT);
                writer.setLiveCommitData(data.entrySet());
                writer.commit();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("search index: " + e.getMessage(), e);
        }
    }

    /** Commits and closes the index. */
    @Override
    public void close() {
        try {
            commit();
            searchers.close();
            writer.close();
            directory.close();
        } catch (IOException e) {
            throw new UncheckedIOException("search index: " + e.getMessage(), e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
