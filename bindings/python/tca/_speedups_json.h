/* tca/_speedups_json.h: the compiled send's JSON writer (a dict action written as JSON), shared
 * by tca._speedups and the Python benchmark's C-extension floor (Benchmarks/python/floor.c), so
 * that the floor writes a dict exactly as Store.send does.
 *
 * Included once per extension (static functions); the includer has included Python.h, stdio.h
 * and string.h, and declared PyUnicode_AsUTF8AndSize for a 3.9 limited-API build.
 */
#ifndef TCA_SPEEDUPS_JSON_H
#define TCA_SPEEDUPS_JSON_H

/* A growing buffer, on the stack while small. */
typedef struct {
  char *data;
  size_t length;
  size_t capacity;
  char small[512];
} Buffer;

enum { WROTE = 0, DECLINED = 1, FAILED = -1 }; /* FAILED: a Python exception is set */
enum { MAX_DEPTH = 64 };

/* Makes room for `count` more bytes (the slow side of put). */
static int grow(Buffer *buffer, size_t count) {
  size_t capacity = buffer->capacity;
  while (count > capacity - buffer->length) {
    if (capacity > ((size_t)1 << 40)) {
      PyErr_NoMemory();
      return FAILED;
    }
    capacity *= 2;
  }
  char *data = buffer->data == buffer->small ? PyMem_Malloc(capacity)
                                             : PyMem_Realloc(buffer->data, capacity);
  if (data == NULL) {
    PyErr_NoMemory();
    return FAILED;
  }
  if (buffer->data == buffer->small) memcpy(data, buffer->small, buffer->length);
  buffer->data = data;
  buffer->capacity = capacity;
  return WROTE;
}

/* NB: inline, and put_byte for one byte: a call and a memcpy per brace, comma and colon were
 * about a third of writing a small action (docs/benchmarks.md, "The Python floor"). */
static inline int put(Buffer *buffer, const char *bytes, size_t count) {
  if (count > buffer->capacity - buffer->length && grow(buffer, count)) return FAILED;
  memcpy(buffer->data + buffer->length, bytes, count);
  buffer->length += count;
  return WROTE;
}

static inline int put_byte(Buffer *buffer, char byte) {
  if (buffer->length == buffer->capacity && grow(buffer, 1)) return FAILED;
  buffer->data[buffer->length++] = byte;
  return WROTE;
}

/* Whether a UTF-8 byte is written escaped in a JSON string: controls, '"' and '\\'. */
static const unsigned char escaped[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['"'] = 1, ['\\'] = 1,
};

/* A str as a JSON string, as json.dumps(ensure_ascii=False) writes it. A str that is not valid
 * UTF-8 (a lone surrogate) is declined: the pure-Python send reports it. */
static int write_string(Buffer *buffer, PyObject *string) {
  Py_ssize_t size = 0;
  const char *text = PyUnicode_AsUTF8AndSize(string, &size);
  if (text == NULL) {
    if (!PyErr_ExceptionMatches(PyExc_UnicodeError)) return FAILED;
    PyErr_Clear();
    return DECLINED;
  }
  /* NB: room for the string unescaped and its quotes at once; escapes grow it further. */
  if ((size_t)size + 2 > buffer->capacity - buffer->length && grow(buffer, (size_t)size + 2)) {
    return FAILED;
  }
  buffer->data[buffer->length++] = '"';
  Py_ssize_t start = 0;
  for (Py_ssize_t i = 0; i < size; i++) {
    unsigned char byte = (unsigned char)text[i];
    if (!escaped[byte]) continue;
    if (put(buffer, text + start, (size_t)(i - start))) return FAILED;
    char escape[8];
    size_t length = 2;
    escape[0] = '\\';
    switch (byte) {
    case '"': escape[1] = '"'; break;
    case '\\': escape[1] = '\\'; break;
    case '\n': escape[1] = 'n'; break;
    case '\r': escape[1] = 'r'; break;
    case '\t': escape[1] = 't'; break;
    case '\b': escape[1] = 'b'; break;
    case '\f': escape[1] = 'f'; break;
    default: length = (size_t)snprintf(escape, sizeof escape, "\\u%04x", byte); break;
    }
    if (put(buffer, escape, length)) return FAILED;
    start = i + 1;
  }
  if (put(buffer, text + start, (size_t)(size - start))) return FAILED;
  return put_byte(buffer, '"');
}

/* A long long in decimal, without printf's parsing of a format. */
static int write_integer(Buffer *buffer, long long number) {
  char text[24];
  char *end = text + sizeof text, *digit = end;
  unsigned long long magnitude = number < 0 ? 0ULL - (unsigned long long)number
                                            : (unsigned long long)number;
  do {
    *--digit = (char)('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (number < 0) *--digit = '-';
  return put(buffer, digit, (size_t)(end - digit));
}

/* `value` as JSON: dicts with str keys, lists, tuples, str, int, bool and None, nested at most
 * MAX_DEPTH deep; anything else (a float, another type, a subclass, a non-str key) is DECLINED,
 * and the pure-Python send writes the whole action (or says why it cannot). */
static int write_value(Buffer *buffer, PyObject *value, int depth) {
  if (PyUnicode_CheckExact(value)) return write_string(buffer, value);
  if (value == Py_None) return put(buffer, "null", 4);
  if (value == Py_True) return put(buffer, "true", 4);
  if (value == Py_False) return put(buffer, "false", 5);
  if (PyLong_CheckExact(value)) {
    int overflow = 0;
    long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow) return DECLINED;
    if (number == -1 && PyErr_Occurred()) return FAILED;
    return write_integer(buffer, number);
  }
  if (depth >= MAX_DEPTH) return DECLINED;
  if (PyDict_CheckExact(value)) {
    if (put_byte(buffer, '{')) return FAILED;
    Py_ssize_t position = 0;
    PyObject *key = NULL, *member = NULL; /* borrowed */
    int first = 1;
    while (PyDict_Next(value, &position, &key, &member)) {
      if (!PyUnicode_CheckExact(key)) return DECLINED;
      if (!first && put_byte(buffer, ',')) return FAILED;
      first = 0;
      int status = write_string(buffer, key);
      if (status == WROTE) status = put_byte(buffer, ':');
      if (status == WROTE) status = write_value(buffer, member, depth + 1);
      if (status != WROTE) return status;
    }
    return put_byte(buffer, '}');
  }
  int is_list = PyList_CheckExact(value);
  if (is_list || PyTuple_CheckExact(value)) {
    if (put_byte(buffer, '[')) return FAILED;
    Py_ssize_t count = is_list ? PyList_Size(value) : PyTuple_Size(value);
    for (Py_ssize_t i = 0; i < count; i++) {
      PyObject *element = is_list ? PyList_GetItem(value, i) : PyTuple_GetItem(value, i);
      if (element == NULL) return FAILED;
      if (i > 0 && put_byte(buffer, ',')) return FAILED;
      int status = write_value(buffer, element, depth + 1);
      if (status != WROTE) return status;
    }
    return put_byte(buffer, ']');
  }
  return DECLINED;
}

/* Starts `buffer` empty, on the stack. */
static void buffer_init(Buffer *buffer) {
  buffer->data = buffer->small;
  buffer->length = 0;
  buffer->capacity = sizeof buffer->small;
}

/* Frees what `buffer` took from the heap, if anything. */
static void buffer_free(Buffer *buffer) {
  if (buffer->data != buffer->small) PyMem_Free(buffer->data);
}

#endif
