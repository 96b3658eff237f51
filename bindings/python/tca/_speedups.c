/* tca._speedups: the optional compiled path of Store.send (docs/python.md, "The compiled send").
 *
 * One callable per store, made by `sender(send_n, handle, encoded, raised, slow, surface,
 * encoder)`: the address of tca_store_send_n (from ctypes, so this module links against nothing),
 * the store's handle, the package's cache of encoded action names (tca._codec.ENCODED), the
 * store's list of exceptions raised in callbacks, weak methods of the store (its pure-Python send
 * and its `_surface`), and optionally the package's JSON encoder (tca._codec.ENCODER, the `json`
 * module's C encoder made once; None: dicts take the pure-Python send). tca._fastsend puts it on
 * the store as `send`. Called with an action, it sends a str whose encoding is cached, bytes, or a
 * dict the encoder writes, and returns None; for anything else (a dataclass, a name not cached
 * yet, a dict the encoder declines) it calls the pure-Python send, which encodes the action, fills
 * the cache and reports errors; a failed status or an exception from a callback goes to
 * `_surface`, which raises exactly what the pure-Python send raises.
 *
 * NB: built against the limited API (abi3), so one build loads in any CPython 3.9+; another
 * Python (PyPy) fails the import and Store.send stays pure Python. The GIL is released during the
 * call, as ctypes does: a threaded store's thread may need it to run a Python callback while this
 * thread waits for the store.
 */
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef int32_t (*send_n_fn)(void *store, const char *action_json, size_t length);

typedef struct {
  PyObject_HEAD
  send_n_fn send_n;
  void *store;
  PyObject *encoded; /* dict: str -> bytes */
  PyObject *raised;  /* list: the store's exceptions from callbacks */
  PyObject *slow;    /* weakref.WeakMethod of the pure-Python Store.send */
  PyObject *surface; /* weakref.WeakMethod of Store._surface */
  PyObject *encoder; /* the json module's C encoder (called as encoder(value, 0)), or NULL */
} Sender;

static void sender_dealloc(PyObject *self) {
  Sender *sender = (Sender *)self;
  PyTypeObject *type = Py_TYPE(self);
  Py_CLEAR(sender->encoded);
  Py_CLEAR(sender->raised);
  Py_CLEAR(sender->slow);
  Py_CLEAR(sender->surface);
  Py_CLEAR(sender->encoder);
  freefunc free_slot = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_slot(self);
  Py_DECREF(type);
}

/* Calls the method a WeakMethod refers to with `argument`; None if the store is gone. */
static PyObject *call_weak(PyObject *weak, PyObject *argument) {
  PyObject *method = PyObject_CallObject(weak, NULL);
  if (method == NULL) return NULL;
  if (method == Py_None) return method;
  PyObject *result = PyObject_CallFunctionObjArgs(method, argument, NULL);
  Py_DECREF(method);
  return result;
}

static PyObject *zero;  /* the encoder's indent level */
static PyObject *empty; /* "" (to join chunks) */

/* Whether the exception set is one the pure-Python send reports as an action it cannot encode
 * (then cleared: that send encodes the action again and raises its own error). */
static int declined(void) {
  if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_ValueError) &&
      !PyErr_ExceptionMatches(PyExc_RecursionError)) {
    return 0;
  }
  PyErr_Clear();
  return 1;
}

/* The JSON of `value` as UTF-8 bytes, by the encoder. NULL with no exception set when it declines
 * (a value JSON cannot hold, nesting too deep: the pure-Python send then says why); NULL with the
 * exception set for anything else (out of memory, an interrupt). */
static PyObject *encode_json(PyObject *encoder, PyObject *value) {
  PyObject *chunks = PyObject_CallFunctionObjArgs(encoder, value, zero, NULL);
  if (chunks == NULL) {
    declined();
    return NULL;
  }
  PyObject *text = NULL;
  /* NB: CPython 3.12+ gives a 1-tuple holding the whole text; earlier ones a list of chunks. */
  if (PyTuple_Check(chunks) && PyTuple_Size(chunks) == 1 &&
      PyUnicode_Check(PyTuple_GetItem(chunks, 0))) {
    text = PyTuple_GetItem(chunks, 0); /* borrowed */
    Py_INCREF(text);
  } else {
    text = PyUnicode_Join(empty, chunks);
  }
  Py_DECREF(chunks);
  if (text == NULL) {
    declined();
    return NULL;
  }
  /* NB: a lone surrogate in a str cannot be UTF-8: a UnicodeEncodeError, a ValueError. */
  PyObject *data = PyUnicode_AsUTF8String(text);
  Py_DECREF(text);
  if (data == NULL) declined();
  return data;
}

/* The callable's body (METH_O: no argument tuple is built per call). */
static PyObject *sender_send(PyObject *self, PyObject *action) {
  Sender *sender = (Sender *)self;
  int32_t status;
  if (PyUnicode_CheckExact(action)) {
    PyObject *data = PyDict_GetItemWithError(sender->encoded, action); /* borrowed */
    if (data == NULL) {
      if (PyErr_Occurred()) return NULL;
      return call_weak(sender->slow, action);
    }
    char *text = NULL;
    Py_ssize_t length = 0;
    if (!PyBytes_Check(data) || PyBytes_AsStringAndSize(data, &text, &length) < 0) {
      PyErr_Clear();
      return call_weak(sender->slow, action);
    }
    /* NB: the cached encoding lives in the dict; hold it across the call, when the GIL is
     * released and another thread may clear the cache. */
    Py_INCREF(data);
    Py_BEGIN_ALLOW_THREADS
    status = sender->send_n(sender->store, text, (size_t)length);
    Py_END_ALLOW_THREADS
    Py_DECREF(data);
  } else if (PyBytes_CheckExact(action)) {
    char *text = NULL;
    Py_ssize_t length = 0;
    if (PyBytes_AsStringAndSize(action, &text, &length) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    status = sender->send_n(sender->store, text, (size_t)length);
    Py_END_ALLOW_THREADS
  } else if (sender->encoder != NULL && PyDict_CheckExact(action)) {
    /* NB: a dict, as the pure-Python send writes it (the same encoder), without its frame, the
     * ctypes call and a WeakMethod call; anything the encoder declines goes there. */
    PyObject *data = encode_json(sender->encoder, action);
    if (data == NULL) return PyErr_Occurred() ? NULL : call_weak(sender->slow, action);
    char *text = NULL;
    Py_ssize_t length = 0;
    if (PyBytes_AsStringAndSize(data, &text, &length) < 0) {
      Py_DECREF(data);
      return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    status = sender->send_n(sender->store, text, (size_t)length);
    Py_END_ALLOW_THREADS
    Py_DECREF(data);
  } else {
    return call_weak(sender->slow, action);
  }
  if (status == 0 && PyList_Size(sender->raised) == 0) Py_RETURN_NONE;
  PyObject *code = PyLong_FromLong(status);
  if (code == NULL) return NULL;
  PyObject *result = call_weak(sender->surface, code);
  Py_DECREF(code);
  return result;
}

static PyType_Slot sender_slots[] = {
    {Py_tp_dealloc, (void *)sender_dealloc},
    {Py_tp_doc, (void *)"Store.send's compiled path for one store (see tca._speedups)."},
    {0, NULL},
};

static PyType_Spec sender_spec = {
    "tca._speedups.Sender", sizeof(Sender), 0, Py_TPFLAGS_DEFAULT, sender_slots,
};

static PyObject *sender_type;

static PyMethodDef send_def = {
    "send", sender_send, METH_O,
    "Sends an action and processes everything it leads to (Store.send, compiled).",
};

/* sender(send_n_address, handle, encoded, raised, slow, surface, encoder=None) -> a builtin
 * function */
static PyObject *make_sender(PyObject *module, PyObject *args) {
  (void)module;
  unsigned long long send_n = 0, store = 0;
  PyObject *encoded = NULL, *raised = NULL, *slow = NULL, *surface = NULL, *encoder = NULL;
  if (!PyArg_ParseTuple(args, "KKO!O!OO|O", &send_n, &store, &PyDict_Type, &encoded,
                        &PyList_Type, &raised, &slow, &surface, &encoder)) {
    return NULL;
  }
  if (encoder == Py_None) encoder = NULL;
  if (encoder != NULL && !PyCallable_Check(encoder)) {
    PyErr_SetString(PyExc_TypeError, "sender: the encoder is not callable");
    return NULL;
  }
  if (send_n == 0) {
    PyErr_SetString(PyExc_ValueError, "sender: the function address is 0");
    return NULL;
  }
  Sender *sender = (Sender *)PyType_GenericAlloc((PyTypeObject *)sender_type, 0);
  if (sender == NULL) return NULL;
  sender->send_n = (send_n_fn)(uintptr_t)send_n;
  sender->store = (void *)(uintptr_t)store;
  Py_INCREF(encoded);
  sender->encoded = encoded;
  Py_INCREF(raised);
  sender->raised = raised;
  Py_INCREF(slow);
  sender->slow = slow;
  Py_INCREF(surface);
  sender->surface = surface;
  Py_XINCREF(encoder);
  sender->encoder = encoder;
  /* NB: a builtin function bound to the state: called through vectorcall, with no tuple. */
  PyObject *callable = PyCFunction_NewEx(&send_def, (PyObject *)sender, NULL);
  Py_DECREF(sender);
  return callable;
}

static PyMethodDef methods[] = {
    {"sender", make_sender, METH_VARARGS,
     "sender(send_n_address, handle, encoded, raised, slow, surface, encoder=None) -> a "
     "compiled send"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "tca._speedups", "Store.send's optional compiled path.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) {
  PyObject *module = PyModule_Create(&module_def);
  if (module == NULL) return NULL;
  if (zero == NULL) zero = PyLong_FromLong(0);
  if (empty == NULL) empty = PyUnicode_FromString("");
  if (zero == NULL || empty == NULL) {
    Py_DECREF(module);
    return NULL;
  }
  sender_type = PyType_FromSpec(&sender_spec);
  if (sender_type == NULL) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
