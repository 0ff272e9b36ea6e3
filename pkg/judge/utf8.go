package judge

import "github.com/evalbook/evalbook/pkg/tabular"

// ErrInvalidUTF8 is the error, wrapped in a *ParseError, of a line that
// is not valid UTF-8. encoding/json would quietly turn each bad byte into
// U+FFFD, so that a label set with a broken answer would calibrate and
// hash as if the answer were written that way; lines are checked raw. It
// is tabular.ErrInvalidUTF8.
var ErrInvalidUTF8 = tabular.ErrInvalidUTF8
