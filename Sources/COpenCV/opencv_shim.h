/* Included by nothing from Swift: the C++ sources include <opencv2/...> directly. */
