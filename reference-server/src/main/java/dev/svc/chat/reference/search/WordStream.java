package dev.svc.chat.reference.search;

import java.util.List;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;

/** Feeds Lucene the words {@link Words} made, at their positions, instead of an analyzer's. */
final class WordStream extends TokenStream {

    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final PositionIncrementAttribute increment = addAttribute(PositionIncrementAttribute.class);
    private final List<MessageText.Positioned> words;
    private int next;
    private int lastPosition = -1;

    WordStream(List<MessageText.Positioned> words) {
        this.words = words;
    }

    @Override
    public boolean incrementToken() {
        if (next >= words.size()) {
            return false;
        }
        clearAttributes();
        MessageText.Positioned word = words.get(next++);
        term.setEmpty().append(word.word());
        increment.setPositionIncrement(word.position() - lastPosition);
        lastPosition = word.position();
        return true;
    }

    @Override
    public void reset() throws java.io.IOException {
        super.reset();
        next = 0;
        lastPosition = -1;
    }
}
