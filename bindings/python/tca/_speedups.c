/* tca._speedups: the optional compiled path of Store.send (docs/python.md, "The compiled send").
 *
 * One callable per store, made by `sender(send, send_n, handle, encoded)`: the addresses of
 * tca_store_send and tca_store_send_n (from ctypes, so this module links against nothing), the
 * store's handle, and the package's cache of encoded action names (tca._codec.ENCODED). Called
 * with an action, it sends a str whose encoding is cached or any bytes, and returns the status as
 * an int; for anything else (a dict, a dataclass, a name not cached yet) it returns
 * NotImplemented and sends nothing, and Store.send takes its pure-Python path, which encodes the
 * action, fills the cache and reports errors exactly as without this module.
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

typedef int32_t (*send_fn)(void *store, const char *action_json);
typedef int32_t (*send_n_fn)(void *store, const char *action_json, size_t length);

typedef struct {
  PyObject_HEAD
  send_fn send;
  send_n_fn send_n;
  void *store;
  PyObject *encoded; /* dict: str -> bytes (strong reference) */
} Sender;

static void sender_dealloc(PyObject *self) {
  Sender *sender = (Sender *)self;
  PyTypeObject *type = Py_TYPE(self);
  Py_CLEAR(sender->encoded);
  freefunc free_slot = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_slot(self);
  Py_DECREF(type);
}

/* The callable's body (METH_O: no argument tuple is built per call). */
static PyObject *sender_send(PyObject *self, PyObject *action) {
  Sender *sender = (Sender *)self;
  int32_t status;
  if (PyUnicode_CheckExact(action)) {
    PyObject *data = PyDict_GetItemWithError(sender->encoded, action); /* borrowed */
    if (data == NULL) {
      if (PyErr_Occurred()) return NULL;
      Py_RETURN_NOTIMPLEMENTED;
    }
    char *text = NULL;
    Py_ssize_t length = 0;
    if (!PyBytes_Check(data) || PyBytes_AsStringAndSize(data, &text, &length) < 0) {
      PyErr_Clear();
      Py_RETURN_NOTIMPLEMENTED;
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
  } else {
    Py_RETURN_NOTIMPLEMENTED;
  }
  return PyLong_FromLong(status);
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
    "send", sender_send, METH_O, "send(action) -> status, or NotImplemented (not sent)",
};

/* sender(send_address, send_n_address, handle, encoded) -> a builtin function */
static PyObject *make_sender(PyObject *module, PyObject *args) {
  (void)module;
  unsigned long long send = 0, send_n = 0, store = 0;
  PyObject *encoded = NULL;
  if (!PyArg_ParseTuple(args, "KKKO!", &send, &send_n, &store, &PyDict_Type, &encoded)) {
    return NULL;
  }
  if (send == 0 || send_n == 0) {
    PyErr_SetString(PyExc_ValueError, "sender: a function address is 0");
    return NULL;
  }
  Sender *sender = (Sender *)PyType_GenericAlloc((PyTypeObject *)sender_type, 0);
  if (sender == NULL) return NULL;
  sender->send = (send_fn)(uintptr_t)send;
  sender->send_n = (send_n_fn)(uintptr_t)send_n;
  sender->store = (void *)(uintptr_t)store;
  Py_INCREF(encoded);
  sender->encoded = encoded;
  /* NB: a builtin function bound to the state: called through vectorcall, with no tuple. */
  PyObject *callable = PyCFunction_NewEx(&send_def, (PyObject *)sender, NULL);
  Py_DECREF(sender);
  return callable;
}

static PyMethodDef methods[] = {
    {"sender", make_sender, METH_VARARGS,
     "sender(send_address, send_n_address, handle, encoded) -> a callable sending one action"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "tca._speedups", "Store.send's optional compiled path.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) {
  PyObject *module = PyModule_Create(&module_def);
  if (module == NULL) return NULL;
  sender_type = PyType_FromSpec(&sender_spec);
  if (sender_type == NULL) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
