class List1000{
  Object[] elems; int count;
  List1000(){ elems = new Object[1000]; }
  List1000(List1000 l){ this(); // call default constructor
    for(java.util.Iterator it = l.iterator(); it.hasNext();)
      { add(it.next()); } }
  void add(Object m){
    Object[] t = this.elems;
    t[count++] = m;
  }
  Object get(int ind){
    Object[] t = this.elems;
    Object p = t[ind]; return p;
  }
  java.util.Iterator iterator(){
    return new ListIterator1000(this);
  }
}
class ListIterator1000 implements java.util.Iterator{
  int pos = 0; List1000 list;
  ListIterator1000(List1000 l){
    this.list = l;
  }
  public boolean hasNext(){ return pos < list.count;}
  public Object next(){ return list.get(pos ++);}
}
class ListClient1000{
  List1000 myList;
  ListClient1000(List1000 l){ myList = l; }
  ListClient1000 deepClone(){
    List1000 j = new List1000(myList);
    return new ListClient1000(j);
  }
  ListClient1000 shallowClone(){
    return new ListClient1000(myList);
  }

public static void main(String[] args){
  List1000 data1 = new List1000();
  for(int i = 0; i < 1000; i++)
    data1.add(new Integer(i));
  List1000 data2 = new List1000();
  for(int i = 0; i < 5; i++){
    data2.add(new String(args[i]));
    System.out.println(data2.get(i));}
  ListClient1000 c1 = new ListClient1000(data1);
  ListClient1000 c2 = new ListClient1000(data2);
  ListClient1000 new_c1 = c1.deepClone();
  ListClient1000 new_c2 = c2.shallowClone();
}
}
